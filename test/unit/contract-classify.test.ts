// The breaking-change classification: one case per classification rule, each giving exactly
// its change with its class, and the exit verdict --fail-on implies.
import { describe, expect, it } from 'vitest';
import { buildSnapshot, normalize, serializeSnapshot, parseSnapshot, type SnapshotParts } from '../../src/contract/snapshot.js';
import { classifySnapshots, failsOn, type ChangeClass } from '../../src/contract/classify.js';
import { renderDiffJunit, renderDiffMarkdown, renderDiffText } from '../../src/contract/report.js';
import type { Tool } from '../../src/protocol/types.js';

const search = (props: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Tool => ({
  name: 'search',
  description: 'Search',
  inputSchema: { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'integer' }, ...props }, required: ['q'], ...extra },
});
const base = (over: Partial<SnapshotParts> = {}): SnapshotParts => ({
  era: 'modern',
  protocolVersion: '2026-07-28',
  supportedVersions: ['2026-07-28'],
  serverInfo: { name: 'srv', version: '1.0.0' },
  capabilities: { tools: { listChanged: true }, prompts: {}, resources: {} },
  tools: [search()],
  prompts: [{ name: 'greet', arguments: [{ name: 'who', required: true }, { name: 'tone' }] }],
  resources: [{ uri: 'file:///a.txt', name: 'a', mimeType: 'text/plain' }],
  resourceTemplates: [{ uriTemplate: 'file:///{path}', name: 'files' }],
  ...over,
});
const withSearch = (t: Tool) => base({ tools: [t] });

/** [case, after, expected kind, expected class, expected path, expected message (substring)] */
const CASES: [string, SnapshotParts, string, ChangeClass, string, string][] = [
  // breaking
  ['tool removed', base({ tools: [] }), 'tool.removed', 'breaking', 'search', 'removed'],
  ['tool renamed', base({ tools: [{ ...search(), name: 'find' }] }), 'tool.renamed', 'breaking', 'search', 'renamed to find'],
  ['prompt removed', base({ prompts: [] }), 'prompt.removed', 'breaking', 'greet', 'removed'],
  ['resource template removed', base({ resourceTemplates: [] }), 'resourceTemplate.removed', 'breaking', 'file:///{path}', 'removed'],
  ['resource removed', base({ resources: [] }), 'resource.removed', 'breaking', 'file:///a.txt', 'removed'],
  [
    'parameter removed',
    withSearch({ ...search(), inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }),
    'param.removed',
    'breaking',
    'search.limit',
    'parameter removed',
  ],
  ['parameter made required', withSearch(search({}, { required: ['limit', 'q'] })), 'param.now-required', 'breaking', 'search.limit', 'now required'],
  [
    'new required parameter',
    withSearch(search({ lang: { type: 'string' } }, { required: ['lang', 'q'] })),
    'param.added-required',
    'breaking',
    'search.lang',
    'new required parameter',
  ],
  ['type widened', withSearch(search({ limit: { type: ['integer', 'string'] } })), 'type.widened', 'compatible', 'search.limit', 'type widened'],
  ['type changed', withSearch(search({ limit: { type: 'string' } })), 'type.changed', 'breaking', 'search.limit', 'type integer → string'],
  ['type narrowed number→integer', base({ tools: [{ ...search({ limit: { type: 'integer' } }), name: 'search' }] }), '', 'breaking', '', ''],
  [
    'enum value removed',
    withSearch(search({ sort: { type: 'string', enum: ['asc'] } })),
    'enum.value-removed',
    'breaking',
    'search.sort',
    'enum value "desc" removed',
  ],
  [
    'additionalProperties closed',
    withSearch(search({}, { additionalProperties: false })),
    'additional-properties.closed',
    'breaking',
    'search',
    'additionalProperties closed',
  ],
  ['maxLength added', withSearch(search({ q: { type: 'string', maxLength: 10 } })), 'constraint.tightened', 'breaking', 'search.q', 'maxLength 10 added'],
  ['minimum raised', withSearch(search({ limit: { type: 'integer', minimum: 5 } })), 'constraint.tightened', 'breaking', 'search.limit', 'minimum 1 → 5'],
  [
    'pattern added',
    withSearch(search({ q: { type: 'string', pattern: '^[a-z]+$' } })),
    'constraint.tightened',
    'breaking',
    'search.q',
    'pattern ^[a-z]+$ added',
  ],
  [
    'output field removed',
    withSearch({ ...search(), outputSchema: { type: 'object', properties: { total: { type: 'integer' } }, required: ['total'] } }),
    'output.field-removed',
    'breaking',
    'search.outputSchema.hits',
    'output field removed',
  ],
  [
    'output field made optional',
    withSearch({ ...search(), outputSchema: { type: 'object', properties: { hits: { type: 'array' }, total: { type: 'integer' } }, required: ['hits'] } }),
    'output.field-now-optional',
    'breaking',
    'search.outputSchema.total',
    'now optional',
  ],
  // compatible
  ['tool added', base({ tools: [search(), { name: 'fetch', inputSchema: { type: 'object' } }] }), 'tool.added', 'compatible', 'fetch', 'added'],
  ['optional parameter added', withSearch(search({ lang: { type: 'string' } })), 'param.added', 'compatible', 'search.lang', 'new optional parameter'],
  ['constraint loosened', withSearch(search({ limit: { type: 'integer', minimum: 0 } })), 'constraint.loosened', 'compatible', 'search.limit', 'minimum 1 → 0'],
  [
    'enum value added',
    withSearch(search({ sort: { type: 'string', enum: ['asc', 'desc', 'rank'] } })),
    'enum.value-added',
    'compatible',
    'search.sort',
    'enum value "rank" added',
  ],
  ['parameter made optional', withSearch(search({}, { required: [] })), 'param.now-optional', 'compatible', 'search.q', 'now optional'],
  [
    'optional prompt argument added',
    base({ prompts: [{ name: 'greet', arguments: [{ name: 'who', required: true }, { name: 'tone' }, { name: 'lang' }] }] }),
    'param.added',
    'compatible',
    'greet.lang',
    'new optional argument',
  ],
  // informational
  [
    'description changed',
    withSearch({ ...search(), description: 'Search the index' }),
    'tool.description',
    'informational',
    'search.description',
    'description changed',
  ],
  ['title changed', withSearch({ ...search(), title: 'Search!' }), 'tool.title', 'informational', 'search.title', 'title changed'],
  [
    'annotations changed',
    withSearch({ ...search(), annotations: { readOnlyHint: true } }),
    'tool.annotations',
    'informational',
    'search.annotations',
    'annotations changed',
  ],
  [
    'ordering changed',
    base({ tools: [{ name: 'b', inputSchema: { type: 'object' } }, search()] }),
    'tool.reordered',
    'informational',
    'tools',
    'another order',
  ],
  [
    'server version changed',
    base({ serverInfo: { name: 'srv', version: '1.1.0' } }),
    'server.info',
    'informational',
    'serverInfo.version',
    'version 1.0.0 → 1.1.0',
  ],
  // needs review
  [
    'anyOf rewritten',
    withSearch(search({ limit: { anyOf: [{ type: 'integer' }, { type: 'string' }] } })),
    'schema.needs-review',
    'review',
    'search.limit',
    'anyOf changed: needs review',
  ],
];

/** The "before" of each case: the base, with the fields the case needs on the before side. */
function before(name: string): SnapshotParts {
  if (name === 'enum value removed' || name === 'enum value added') return withSearch(search({ sort: { type: 'string', enum: ['asc', 'desc'] } }));
  if (name === 'minimum raised' || name === 'constraint loosened') return withSearch(search({ limit: { type: 'integer', minimum: 1 } }));
  if (name === 'output field removed' || name === 'output field made optional')
    return withSearch({
      ...search(),
      outputSchema: { type: 'object', properties: { hits: { type: 'array' }, total: { type: 'integer' } }, required: ['hits', 'total'] },
    });
  if (name === 'ordering changed') return base({ tools: [search(), { name: 'b', inputSchema: { type: 'object' } }] });
  if (name === 'anyOf rewritten') return withSearch(search({ limit: { anyOf: [{ type: 'integer' }] } }));
  if (name === 'type narrowed number→integer') return withSearch(search({ limit: { type: 'number' } }));
  return base();
}

describe('classifySnapshots: one case per classification rule', () => {
  for (const [name, after, kind, cls, path, message] of CASES) {
    it(`${name} → ${cls}`, () => {
      const c = classifySnapshots(buildSnapshot(before(name)), buildSnapshot(after));
      if (name === 'type narrowed number→integer') {
        expect(c.changes).toEqual([
          expect.objectContaining({ kind: 'type.narrowed', class: 'breaking', path: 'search.limit', message: 'type narrowed number → integer' }),
        ]);
      } else {
        expect(c.changes).toHaveLength(1);
        expect(c.changes[0]).toMatchObject({ kind, class: cls, path });
        expect(c.changes[0].message).toContain(message);
      }
      // The exit verdict of each --fail-on.
      expect(failsOn(c, 'any')).toBe(true);
      expect(failsOn(c, 'none')).toBe(false);
      expect(failsOn(c, 'breaking')).toBe(cls === 'breaking' || cls === 'review');
    });
  }

  it('no change: nothing to report, no --fail-on fails', () => {
    const c = classifySnapshots(buildSnapshot(base()), buildSnapshot(base()));
    expect(c.changes).toEqual([]);
    for (const f of ['breaking', 'any', 'none'] as const) expect(failsOn(c, f)).toBe(false);
  });

  it('key order and required order are not changes (normalised)', () => {
    const a = buildSnapshot(base());
    const b = buildSnapshot(
      withSearch({
        inputSchema: { required: ['q'], properties: { limit: { type: 'integer' }, q: { type: 'string' } }, type: 'object' },
        description: 'Search',
        name: 'search',
      }),
    );
    expect(classifySnapshots(a, b).changes).toEqual([]);
    expect(normalize({ required: ['b', 'a'], properties: { required: { type: 'string' } } })).toEqual({
      properties: { required: { type: 'string' } },
      required: ['a', 'b'],
    });
  });

  it('serializes canonically and parses back', () => {
    const text = serializeSnapshot(buildSnapshot(base()));
    expect(serializeSnapshot(parseSnapshot(JSON.parse(text)))).toBe(text);
    expect(text).not.toMatch(/time|date/i);
    expect(() => parseSnapshot({ tools: [] })).toThrow(/not an mcp-inspect snapshot/);
  });

  it('renders text with the tool diff, Markdown and JUnit', () => {
    const a = buildSnapshot(base());
    const b = buildSnapshot(withSearch(search({}, { required: ['limit', 'q'] })));
    const c = classifySnapshots(a, b);
    const text = renderDiffText(a, b, c, { color: false });
    expect(text).toContain('~ search');
    expect(text).toContain('breaking      search.limit: now required');
    expect(text).toContain('1 breaking');
    expect(renderDiffMarkdown(c)).toContain('| breaking | `search.limit` | now required |');
    const xml = renderDiffJunit(c, (ch) => ch.class === 'breaking');
    expect(xml).toContain('<testsuite name="mcp-inspect diff" tests="1" failures="1"');
    expect(xml).toContain('<failure type="breaking" message="breaking: search.limit: now required"');
  });
});
