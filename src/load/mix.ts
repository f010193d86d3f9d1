/**
 * `load --mix FILE`: the calls of a collection (src/collection/format.ts, read by
 * src/collection/file.ts as `run` reads it) as kinds of request for the load engine, each
 * picked by its `weight` (default 1). Only what a load needs is taken: `expect` is `run`'s,
 * and `${calls.NAME…}` (a later call using an earlier one's result) is refused, since a load
 * runs its calls in no order. `${env:NAME}` is resolved once, before the run. Pure.
 */
import { CollectionError, interpolate, referencesIn, TARGET_FIELD, type CallMethod, type Collection } from '../collection/format.js';
import type { JsonObject } from '../protocol/types.js';

/** One kind of request of a mix. */
export interface MixCall {
  /** The call's name in the collection. */
  name: string;
  method: CallMethod;
  /** The tool (tools/call), prompt (prompts/get) or URI (resources/read). */
  target: string;
  /** The arguments, `${env:…}` resolved (prompts: string values). */
  arguments: JsonObject;
  /** The top-level arguments whose whole value was one `${env:…}`: typed by the tool's schema as `call` types key=value. */
  fromEnv: string[];
  /** Relative share of the requests (> 0). */
  weight: number;
  /** The call has `answers` of its own (a load cannot use them: its calls run at once, on one input handler). */
  hasAnswers: boolean;
}

/** Every string inside `v`. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) strings(x, out);
  return out;
}

/**
 * The calls of `collection` with `${env:NAME}` taken from `env`. Throws CollectionError (a
 * UsageError, exit 64) for a `${calls.…}` reference and for an unset variable.
 */
export function mixOf(collection: Collection, env: Readonly<Record<string, string | undefined>>): MixCall[] {
  const scope = { env, results: new Map<string, unknown>() };
  return collection.calls.map((c) => {
    const where = `${collection.file}: call ${JSON.stringify(c.name)}`;
    for (const s of strings([c[TARGET_FIELD[c.method]], c.arguments]))
      if (referencesIn(s).some((r) => r.kind === 'call'))
        throw new CollectionError(
          'MCPI_COLLECTION_VARIABLE',
          `${where}: \${calls.…} uses an earlier call's result, but a load runs its calls in no order (give the value itself, or use run)`,
          { file: collection.file },
        );
    const args = c.arguments ? interpolate(c.arguments, scope) : { value: {}, fromEnv: [] };
    return {
      name: c.name,
      method: c.method,
      target: String(interpolate(c[TARGET_FIELD[c.method]] ?? '', scope).value),
      arguments: args.value,
      fromEnv: args.fromEnv,
      weight: c.weight ?? 1,
      hasAnswers: !!c.answers && Object.keys(c.answers).length > 0,
    };
  });
}
