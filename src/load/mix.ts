/**
 * `load --mix FILE`: the calls of a collection (issue 21 §2's format,
 * `{"format": "mcp-inspect/collection@1", "calls": [{name, method, tool | prompt | uri,
 * arguments, weight, …}]}`) as kinds of request for the load engine, each picked by its
 * `weight` (default 1; 0 leaves a call out). Only what a load needs is read: `expect` and
 * `answers` are ignored, and `${calls.NAME…}` (a later call using an earlier one's result)
 * is refused, since a load runs its calls in no order.
 *
 * This is the narrow interface `load` reads collections through ({@link MixCall}); the
 * collection module of `run` replaces the reader behind it when it lands. Pure.
 */
import { UsageError } from '../protocol/errors.js';
import type { JsonObject } from '../protocol/types.js';

/** The methods a collection's call may use. */
export type MixMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/** One kind of request of a mix. */
export interface MixCall {
  /** The call's name in the collection (unique; default: the tool's, prompt's or URI's, numbered when taken). */
  name: string;
  method: MixMethod;
  /** The tool (tools/call), prompt (prompts/get) or URI (resources/read). */
  target: string;
  /** The arguments as the collection gives them (prompts: string values). */
  arguments: JsonObject;
  /** Relative share of the requests (> 0). */
  weight: number;
}

const FORMAT = 'mcp-inspect/collection@1';
const METHODS: readonly MixMethod[] = ['tools/call', 'prompts/get', 'resources/read'];
const TARGET_KEY: Record<MixMethod, 'tool' | 'prompt' | 'uri'> = { 'tools/call': 'tool', 'prompts/get': 'prompt', 'resources/read': 'uri' };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `${env:NAME}` in every string of `v` replaced by the variable (UsageError naming it when unset); `${calls.…}` refused. */
function interpolate(v: unknown, env: Record<string, string | undefined>, where: string): unknown {
  if (typeof v === 'string') {
    if (/\$\{calls\./.test(v))
      throw new UsageError(`${where}: \${calls.…} uses an earlier call's result, but a load runs its calls in no order; give the value itself`);
    return v.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
      const value = env[name];
      if (value === undefined) throw new UsageError(`${where}: \${env:${name}} is not set in the environment`);
      return value;
    });
  }
  if (Array.isArray(v)) return v.map((x) => interpolate(x, env, where));
  if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, interpolate(x, env, where)]));
  return v;
}

/**
 * The calls of a collection's text (`source` names it in messages), with `${env:NAME}` taken
 * from `env`, calls of weight 0 left out. Throws UsageError for text that is not such a
 * collection, a call without its tool / prompt / uri, a bad weight, or no call left.
 */
export function parseMix(text: string, source: string, env: Record<string, string | undefined>): MixCall[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--mix ${source}: not JSON (${(e as Error).message})`);
  }
  if (!isObj(doc) || !Array.isArray(doc.calls))
    throw new UsageError(`--mix ${source}: expected a collection, {"format": "${FORMAT}", "calls": [{"tool": …, "arguments": {…}, "weight": 1}, …]}`);
  if (doc.format !== undefined && doc.format !== FORMAT)
    throw new UsageError(`--mix ${source}: format ${JSON.stringify(doc.format)} is not one this version reads (${FORMAT})`);
  const taken = new Set<string>();
  const calls: MixCall[] = [];
  doc.calls.forEach((raw, i) => {
    const where = `--mix ${source}: calls[${i}]`;
    if (!isObj(raw)) throw new UsageError(`${where} is not an object`);
    const method = (raw.method ?? 'tools/call') as MixMethod;
    if (!METHODS.includes(method)) throw new UsageError(`${where}: method ${JSON.stringify(raw.method)} is not one of ${METHODS.join(', ')}`);
    const key = TARGET_KEY[method];
    const target = interpolate(raw[key], env, where);
    if (typeof target !== 'string' || !target) throw new UsageError(`${where}: a ${method} call needs "${key}" (a string)`);
    const args = raw.arguments === undefined ? {} : interpolate(raw.arguments, env, where);
    if (!isObj(args)) throw new UsageError(`${where}: "arguments" must be an object`);
    const weight = raw.weight === undefined ? 1 : raw.weight;
    if (typeof weight !== 'number' || !(weight >= 0) || !Number.isFinite(weight)) throw new UsageError(`${where}: "weight" must be a number ≥ 0`);
    let name = typeof raw.name === 'string' && raw.name ? raw.name : target;
    if (taken.has(name)) {
      if (typeof raw.name === 'string' && raw.name) throw new UsageError(`${where}: the name ${JSON.stringify(name)} is taken by an earlier call`);
      let k = 2;
      while (taken.has(`${target} ${k}`)) k++;
      name = `${target} ${k}`;
    }
    taken.add(name);
    if (weight > 0) calls.push({ name, method, target, arguments: args, weight });
  });
  if (!calls.length) throw new UsageError(`--mix ${source}: no call with a weight above 0`);
  return calls;
}
