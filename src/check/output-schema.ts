/**
 * The one outputSchema verdict, shared by `call` and the TUI's result view.
 * spec: server/tools#output-schema, server/tools#structured-content
 */
import type { CallToolResult, Tool } from '../protocol/types.js';
import { validateValue, type ValidationIssue } from '../schema/validate.js';
import { finding } from './rules.js';
import type { Finding } from './types.js';

/**
 * - `pass`: `structuredContent` matches the tool's `outputSchema`;
 * - `fail`: it does not, or the schema is declared and `structuredContent` is absent;
 * - `not-checked`: the result has `isError: true` (a tool error need not follow the schema);
 * - `cannot-check`: the schema cannot be used (unknown dialect, unresolvable `$ref`…), with the reason.
 */
export type OutputSchemaVerdict =
  | { verdict: 'pass'; unenforcedPatterns?: string[] }
  | { verdict: 'fail'; reason: 'missing' | 'mismatch'; errors: ValidationIssue[]; unenforcedPatterns?: string[] }
  | { verdict: 'not-checked'; reason: 'isError' }
  | { verdict: 'cannot-check'; reason: string };

/** Checks a complete `tools/call` result against the tool's `outputSchema`; undefined when the tool declares none. Never throws. */
export function outputSchemaVerdict(tool: Tool | undefined, result: CallToolResult): OutputSchemaVerdict | undefined {
  const schema = tool?.outputSchema;
  if (!schema) return undefined;
  if (result.isError === true) return { verdict: 'not-checked', reason: 'isError' };
  if (result.structuredContent === undefined) return { verdict: 'fail', reason: 'missing', errors: [] };
  const v = validateValue(schema, result.structuredContent, { noun: 'field', rootLabel: 'structuredContent' });
  if (v.schemaError) return { verdict: 'cannot-check', reason: v.schemaError };
  const extra = v.unenforcedPatterns?.length ? { unenforcedPatterns: v.unenforcedPatterns } : {};
  return v.valid ? { verdict: 'pass', ...extra } : { verdict: 'fail', reason: 'mismatch', errors: v.errors, ...extra };
}

/** The findings a verdict implies (a `fail` is a spec MUST broken; `cannot-check` a warning), keyed by the tool. */
export function outputSchemaFindings(toolName: string, v: OutputSchemaVerdict | undefined): Finding[] {
  if (!v) return [];
  if (v.verdict === 'fail') {
    const message =
      v.reason === 'missing'
        ? `tool ${JSON.stringify(toolName)} declares an outputSchema but its result has no structuredContent`
        : `the structuredContent of ${JSON.stringify(toolName)} does not match its outputSchema: ${v.errors.map((e) => e.message).join('; ')}`;
    return [
      finding('tools.output-schema-mismatch', message, { key: toolName, data: { tool: toolName, reason: v.reason, errors: v.errors.map((e) => e.message) } }),
    ];
  }
  if (v.verdict === 'cannot-check') {
    return [
      finding('tools.output-schema-unusable', `the outputSchema of ${JSON.stringify(toolName)} cannot be used: ${v.reason}`, {
        key: toolName,
        data: { tool: toolName, reason: v.reason },
      }),
    ];
  }
  return [];
}
