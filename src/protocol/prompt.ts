/**
 * Prompts as listed by `prompts/list` and got by `prompts/get`, and the one JSON Schema their
 * arguments become for the form engine and for `key=value` coercion. Pure.
 *
 * spec: server/prompts#data-types
 */
import type { ContentBlock, JsonObject, Prompt } from './types.js';
import { sanitizeLine } from '../util/sanitize.js';

/** The protocol's prompt types live in ./types.ts (one set); re-exported here beside their helpers. */
export type { Prompt, PromptArgument } from './types.js';

/** One message of a `prompts/get` result. spec: server/prompts#promptmessage */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
  [k: string]: unknown;
}

/** A complete `prompts/get` result. */
export interface GetPromptResult {
  resultType?: string;
  description?: string;
  messages: PromptMessage[];
  _meta?: JsonObject;
  [k: string]: unknown;
}

/** `title`, else `name`; one terminal line, sanitized. */
export function promptDisplayName(p: Prompt): string {
  return sanitizeLine(typeof p.title === 'string' && p.title.trim() ? p.title : String(p.name));
}

/**
 * The JSON Schema of a prompt's arguments: one `string` property per argument (title and
 * description carried over), `required` from the arguments' `required: true`, no other
 * properties. Arguments without a string `name`, or repeated names, are skipped.
 */
export function promptArgumentsSchema(p: Prompt): JsonObject {
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const a of Array.isArray(p.arguments) ? p.arguments : []) {
    if (!a || typeof a.name !== 'string' || a.name === '' || Object.hasOwn(properties, a.name)) continue;
    const s: JsonObject = { type: 'string' };
    if (typeof a.title === 'string') s.title = a.title;
    if (typeof a.description === 'string') s.description = a.description;
    properties[a.name] = s;
    if (a.required === true) required.push(a.name);
  }
  const schema: JsonObject = { type: 'object', properties, additionalProperties: false };
  if (required.length) schema.required = required;
  return schema;
}
