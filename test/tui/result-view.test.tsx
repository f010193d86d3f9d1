import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { McpError, TransportError } from '../../src/protocol/errors.js';
import type { CallOutcome, ListenSessionEvent } from '../../src/client/types.js';
import type { CallState } from '../../src/tui/hooks/useCall.js';
import { rawResultJson, resultLines } from '../../src/tui/lines/resultLines.js';
import { lineText } from '../../src/tui/lines/lines.js';
import { MAX_SHOWN_ENTRIES } from '../../src/tui/lines/jsonFold.js';
import { ResultView } from '../../src/tui/components/ResultView.js';
import { Feed, fakeServices, renderWith, tool, waitFor } from './helpers.js';

afterEach(() => cleanup());

const base = { id: 1, tool: 'weather', args: { city: 'Paris' }, startedAt: 1000, endedAt: 1250, progressCount: 0, logs: [] };
const done = (outcome: CallOutcome): Extract<CallState, { phase: 'done' }> => ({ ...base, phase: 'done', outcome });
const failed = (error: unknown, cancelled = false): Extract<CallState, { phase: 'failed' }> => ({ ...base, phase: 'failed', error, cancelled });
const text = (c: Extract<CallState, { phase: 'done' } | { phase: 'failed' }>, t = tool('weather'), width = 80) =>
  resultLines(c, t, width).map(lineText).join('\n');

describe('hostile sizes (issue 17 §11)', () => {
  const deep = (n: number): unknown => {
    let v: unknown = 1;
    for (let i = 0; i < n; i++) v = { a: v };
    return v;
  };
  it('a 100k-level structuredContent and JSON text block: lines down to the bound, then "(nested deeper than 128 levels)"', () => {
    const deepText = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    const out = text(done({ kind: 'complete', result: { content: [{ type: 'text', text: deepText }], structuredContent: deep(100_000) } }));
    expect(out).toContain('(nested deeper than 128 levels)');
    expect(out.match(/nested deeper than 128 levels/g)).toHaveLength(2);
  });
  it('a 1.4 MB wide result (200,000 array items, one line each) makes its lines: no array spread into a call', () => {
    const items = Array.from({ length: 200_000 }, (_, i) => 1_000_000 + i);
    const wide = JSON.stringify(items);
    expect(wide.length).toBeGreaterThan(1_400_000);
    const lines = resultLines(
      done({
        kind: 'complete',
        result: {
          content: [
            { type: 'text', text: wide },
            { type: 'text', text: '1\n'.repeat(200_000) },
          ],
        },
      }),
      tool('weather'),
      80,
    );
    // The text block's 200,000 lines, and the array's first MAX_SHOWN_ENTRIES items then one line for the rest (issue 19.1).
    expect(lines.length).toBeGreaterThan(200_000 + MAX_SHOWN_ENTRIES);
    expect(lines.map(lineText)).toContain(
      `      … ${(200_000 - MAX_SHOWN_ENTRIES).toLocaleString('en-US')} more items not shown (nor searched): s saves the whole result`,
    );
  });
  it('the result view draws a frame of both (at the bound, and at the end of the wide block)', async () => {
    const c = done({
      kind: 'complete',
      result: {
        content: [{ type: 'text', text: JSON.stringify(Array.from({ length: 200_000 }, (_, i) => i)) }],
        structuredContent: deep(100_000),
      },
    });
    const lines = resultLines(c, tool('weather'), 80);
    const at = lines.findIndex((l) => lineText(l).includes('nested deeper than 128 levels'));
    expect(at).toBeGreaterThan(MAX_SHOWN_ENTRIES);
    const r = renderWith(<ResultView call={c} lines={lines} offset={at - 3} width={80} height={10} />, fakeServices(new Feed<ListenSessionEvent>()));
    const f = await waitFor(r, (f) => f.includes('nested deeper than 128 levels'));
    expect(f).toMatch(/lines \d+–\d+ of \d+/);
  });
});

describe('resultLines', () => {
  it('renders every content block kind', () => {
    const out = text(
      done({
        kind: 'complete',
        result: {
          content: [
            { type: 'text', text: 'Sunny and warm. '.repeat(10) },
            { type: 'text', text: '{"temp":21,"unit":"c"}' },
            { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
            { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
            { type: 'resource_link', uri: 'file:///tmp/report.txt', name: 'report', mimeType: 'text/plain' },
            { type: 'resource', resource: { uri: 'mem://x', mimeType: 'text/plain', text: 'embedded body' } },
            { type: 'resource', resource: { uri: 'mem://bin', blob: 'AAAAAA==' } },
            { type: 'hologram', beam: 1 },
          ],
        },
      }),
    );
    expect(out).toContain('✓ weather  complete after 250 ms');
    expect(out).toContain('Content (8 blocks)');
    // wrapped text: no line longer than the width
    for (const l of out.split('\n')) expect([...l].length).toBeLessThanOrEqual(80);
    expect(out).toContain('[1] text  (JSON)');
    expect(out).toContain('"temp": 21');
    expect(out).toContain('[2] image  image/png  5 B');
    expect(out).toContain('[3] audio  audio/wav  3 B');
    expect(out).toContain('[4] resource_link  file:///tmp/report.txt');
    expect(out).toContain('report · text/plain');
    expect(out).toContain('[5] resource  mem://x  text/plain');
    expect(out).toContain('embedded body');
    expect(out).toContain('blob 4 B');
    expect(out).toContain('[7] hologram  (content type not defined by the spec)');
  });

  it('structuredContent: pass / fail against outputSchema, and missing', () => {
    const t = tool('weather', { outputSchema: { type: 'object', properties: { temp: { type: 'number' } }, required: ['temp'] } });
    const pass = text(done({ kind: 'complete', result: { content: [], structuredContent: { temp: 3 } } }), t);
    expect(pass).toContain('✓ PASS  matches outputSchema');
    expect(pass).toContain('"temp": 3');
    const fail = text(done({ kind: 'complete', result: { content: [], structuredContent: { temp: 'warm' } } }), t);
    expect(fail).toContain('✗ FAIL  does not match outputSchema (1 problem)');
    expect(fail).toContain('temp must be number');
    const missing = text(done({ kind: 'complete', result: { content: [] } }), t);
    expect(missing).toContain('outputSchema declared but the result has no structuredContent');
    const noSchema = text(done({ kind: 'complete', result: { content: [], structuredContent: { a: 1 } } }));
    expect(noSchema).toContain('declares no outputSchema');
  });

  it('structuredContent: the one verdict of the CLI (not checked on isError, cannot check an unusable schema)', () => {
    const t = tool('weather', { outputSchema: { type: 'object', properties: { temp: { type: 'number' } }, required: ['temp'] } });
    const isErr = text(done({ kind: 'complete', result: { content: [], isError: true, structuredContent: { temp: 'warm' } } }), t);
    expect(isErr).toContain('– not checked: the result has isError: true');
    expect(isErr).not.toContain('FAIL');
    const isErrBare = text(done({ kind: 'complete', result: { content: [], isError: true } }), t);
    expect(isErrBare).toContain('– not checked: the result has isError: true');
    const unusable = tool('weather', { outputSchema: { $schema: 'https://example.com/unknown-dialect', type: 'object' } });
    const cannot = text(done({ kind: 'complete', result: { content: [], structuredContent: { temp: 3 } } }), unusable);
    expect(cannot).toMatch(/\? cannot check {2}\S/);
  });

  it('isError results are marked (and styled as errors)', () => {
    const lines = resultLines(done({ kind: 'complete', result: { content: [{ type: 'text', text: 'city not found' }], isError: true } }), tool('weather'), 80);
    const all = lines.map(lineText).join('\n');
    expect(all).toContain('✗ weather  tool error (isError: true)');
    const body = lines.find((l) => lineText(l).includes('city not found'))!;
    expect(body[0].style).toBe('error');
  });

  it('JSON-RPC errors show code, name, message and data', () => {
    const out = text(failed(new McpError({ code: -32602, message: 'Unknown tool: weather', data: { hint: 'list tools' } })));
    expect(out).toContain('JSON-RPC error after 250 ms');
    expect(out).toContain('-32602 (invalid params)');
    expect(out).toContain('Unknown tool: weather');
    expect(out).toContain('"hint": "list tools"');
  });

  it('transport failures and cancellation', () => {
    expect(text(failed(new TransportError('MCPI_TIMEOUT', 'no answer within 30000 ms')))).toContain('MCPI_TIMEOUT');
    const c = text(failed(new TransportError('MCPI_CANCELLED', 'cancelled'), true));
    expect(c).toContain('cancelled after 250 ms');
    expect(c).toContain('cancelled the request on the wire');
  });

  it('input_required is reported clearly', () => {
    const out = text(
      done({
        kind: 'input_required',
        result: {
          resultType: 'input_required',
          inputRequests: { confirm: { method: 'elicitation/create', params: { message: 'Really delete?' } } },
          requestState: 'opaque123',
        },
      }),
    );
    expect(out).toContain('input_required');
    expect(out).toContain('The server needs more input');
    expect(out).toContain('confirm  elicitation/create');
    expect(out).toContain('Really delete?');
    expect(out).toContain('requestState: present (9 chars, opaque)');
  });

  it('sanitizes server text', () => {
    const out = text(done({ kind: 'complete', result: { content: [{ type: 'text', text: 'a\u001b[2Jb\u001b]0;title\u0007c\u0085d' }] } }));
    expect(out).toContain('abcd');
    expect(out).not.toMatch(/[\u001b\u0007\u0085]/);
  });

  it('raw JSON for saving', () => {
    const raw = rawResultJson(done({ kind: 'complete', result: { content: [{ type: 'text', text: 'x' }] } }));
    expect(JSON.parse(raw)).toEqual({ content: [{ type: 'text', text: 'x' }] });
    const err = rawResultJson(failed(new McpError({ code: -32000, message: 'm', data: 1 })));
    expect(JSON.parse(err)).toEqual({ error: { code: -32000, message: 'm', data: 1 } });
  });
});

describe('ResultView', () => {
  it('shows a spinner, elapsed time and progress while running', async () => {
    const running: CallState = {
      ...base,
      startedAt: Date.now(),
      phase: 'running',
      cancelling: false,
      progress: { progress: 3, total: 10, message: 'fetching' },
      progressCount: 3,
    };
    const r = renderWith(<ResultView call={running} lines={[]} offset={0} width={80} height={10} />, fakeServices(new Feed<ListenSessionEvent>()));
    const f = await waitFor(r, (f) => f.includes('calling weather'));
    expect(f).toContain('progress 3/10 (30%)  fetching');
    expect(f).toContain('Esc cancels the call');
    expect(f).toMatch(/\d+ ms|\d+\.\d s/);
  });
});
