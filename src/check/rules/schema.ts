/**
 * Rules over tool definitions that `mcp-inspect check` adds to the client's own (see
 * tools.ts): schemas valid in their dialect, names, a deterministic order. Pure.
 * spec: server/tools#tool, server/tools#tool-names, server/tools#output-schema, server/tools#listing-tools
 */
import type { Tool } from '../../protocol/types.js';
import { schemaErrorOf } from '../../schema/validate.js';
import { isObject } from '../../util/json.js';
import { excerpt } from '../evidence.js';
import { finding } from '../rules.js';
import type { Finding } from '../types.js';
import { LIST_KINDS } from '../../protocol/list-kinds.js';

const LIST = { method: LIST_KINDS.tools.method } as const;
/** spec: server/tools#tool-names: 1 to 128 characters of A-Z, a-z, 0-9, `_`, `-`, `.`. */
const NAME_RE = /^[A-Za-z0-9_.-]{1,128}$/;

function rootTypeIsObject(s: Record<string, unknown>): boolean {
  return s.type === 'object' || (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === 'object');
}

/**
 * Per named tool: `tools.input-schema-invalid` when an object inputSchema does not compile in
 * its dialect or its root `type` is not "object" (a non-object inputSchema is
 * tools.input-schema-not-object's); `tools.output-schema-invalid` when an outputSchema is
 * present but not an object, does not compile, or its root type is not "object";
 * `tools.name-invalid` for a name outside the allowed characters or length.
 */
export function checkToolDefinitions(tools: readonly Tool[]): Finding[] {
  const out: Finding[] = [];
  for (const t of tools) {
    const name = t.name;
    const input = t.inputSchema as unknown;
    if (isObject(input)) {
      const why = schemaErrorOf(input) ?? (rootTypeIsObject(input) ? undefined : `its root type is ${JSON.stringify(input.type ?? null)}, not "object"`);
      if (why)
        out.push(
          finding('tools.input-schema-invalid', `the inputSchema of ${JSON.stringify(name)} is not usable: ${why}`, {
            key: name,
            data: { tool: name, reason: why },
            evidence: { request: LIST, response: { name, inputSchema: excerpt(input) } },
          }),
        );
    }
    if (t.outputSchema !== undefined) {
      const output = t.outputSchema as unknown;
      const why = !isObject(output)
        ? `it is ${output === null ? 'null' : Array.isArray(output) ? 'an array' : typeof output}, not a JSON Schema object`
        : (schemaErrorOf(output) ?? (rootTypeIsObject(output) ? undefined : `its root type is ${JSON.stringify(output.type ?? null)}, not "object"`));
      if (why)
        out.push(
          finding('tools.output-schema-invalid', `the outputSchema of ${JSON.stringify(name)} is not usable: ${why}`, {
            key: name,
            data: { tool: name, reason: why },
            evidence: { request: LIST, response: { name, outputSchema: excerpt(output) } },
          }),
        );
    }
    if (!NAME_RE.test(name))
      out.push(
        finding(
          'tools.name-invalid',
          `tool name ${JSON.stringify(name.length > 140 ? name.slice(0, 140) + '…' : name)} ${name.length < 1 || name.length > 128 ? `has ${name.length} characters (1–128 allowed)` : 'has characters outside A-Z a-z 0-9 _ - .'}`,
          { key: name, data: { tool: name, length: name.length }, evidence: { request: LIST, response: { name: excerpt(name) } } },
        ),
      );
  }
  return out;
}

/** `tools.order-unstable`: the names of two identical `tools/list` calls (all pages) in different orders (same set: the order differs). */
export function checkToolOrder(first: readonly string[], second: readonly string[]): Finding[] {
  const same = first.length === second.length && first.every((n, i) => second[i] === n);
  if (same) return [];
  const sameSet = first.length === second.length && [...first].sort().every((n, i) => [...second].sort()[i] === n);
  return [
    finding('tools.order-unstable', `two identical tools/list calls ${sameSet ? 'listed the same tools in different orders' : 'listed different tools'}`, {
      data: { first: [...first], second: [...second] },
      evidence: { request: LIST, response: { first: excerpt(first, 240), second: excerpt(second, 240) } },
    }),
  ];
}
