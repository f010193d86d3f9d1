/**
 * Rules over tool definitions and tool results. Pure: observed values in, findings out.
 * spec: server/tools#tool, server/tools#tool-names, server/tools#tool-result
 */
import type { JsonObject, Tool } from '../../protocol/types.js';
import { isObject } from '../../util/json.js';
import { excerpt } from '../evidence.js';
import { finding } from '../rules.js';
import type { Finding } from '../types.js';
import { LIST_KINDS } from '../../protocol/list-kinds.js';

const LIST_REQUEST = { method: LIST_KINDS.tools.method } as const;

/** True for a `tools/list` entry the client can keep: an object with a string `name`. */
export function isNamedTool(v: unknown): v is Tool {
  return isObject(v) && typeof v.name === 'string';
}

/**
 * Findings about a complete tool list (every page, in order, as the server sent the entries):
 * `tools.unnamed` for each entry that is not an object with a string name (the client leaves
 * it out), then, over the named ones, `tools.duplicate-name` once per repeated name (keyed by
 * the name) and `tools.input-schema-not-object` for an inputSchema that is
 * not a JSON object. Never throws.
 */
export function checkToolList(items: readonly unknown[]): Finding[] {
  const out: Finding[] = [];
  items.forEach((t, index) => {
    if (!isNamedTool(t))
      out.push(
        finding('tools.unnamed', 'the server listed a tool without a name; ignored', {
          data: { index },
          evidence: { request: LIST_REQUEST, response: excerpt(t) },
        }),
      );
  });
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const t of items) {
    if (!isNamedTool(t)) continue;
    const name = t.name;
    if (seen.has(name) && !repeated.has(name)) {
      repeated.add(name);
      out.push(
        finding('tools.duplicate-name', `the server lists more than one tool named ${JSON.stringify(name)}; names must be unique (calls go to the first)`, {
          key: name,
          data: { tool: name },
          evidence: { request: LIST_REQUEST, response: { name } },
        }),
      );
    }
    seen.add(name);
    const s = t.inputSchema as unknown;
    if (!isObject(s)) {
      const what = s === null ? 'null' : Array.isArray(s) ? 'an array' : typeof s;
      out.push(
        finding(
          'tools.input-schema-not-object',
          `tool ${JSON.stringify(name)} has an inputSchema that is not a JSON Schema object (${what}); its arguments cannot be typed or validated`,
          {
            data: { tool: name, inputSchemaType: what },
            evidence: { request: LIST_REQUEST, response: { name, inputSchema: excerpt(s) } },
          },
        ),
      );
    }
  }
  return out;
}

/**
 * Findings about a complete `tools/call` result: `tools.call-no-content` when it has no
 * `content` array (keyed by the tool). The outputSchema rules live in ../output-schema.ts.
 */
export function checkCallResult(toolName: string, result: JsonObject): Finding[] {
  if (Array.isArray(result.content)) return [];
  return [
    finding('tools.call-no-content', 'the tools/call result has no content array', {
      key: toolName,
      data: { tool: toolName },
      evidence: { request: { method: 'tools/call', params: { name: toolName } }, response: excerpt(result) },
    }),
  ];
}
