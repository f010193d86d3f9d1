/**
 * Rules over `server/discover` and the envelope every modern result carries (`resultType`,
 * `_meta` serverInfo, the cache hints of cacheable results). Pure: observed results in,
 * findings out. spec: server/discover, basic#responses, basic#meta, basic/patterns/caching
 */
import { META } from '../../protocol/constants.js';
import type { JsonObject } from '../../protocol/types.js';
import { isObject } from '../../util/json.js';
import { excerpt } from '../evidence.js';
import { finding } from '../rules.js';
import type { Evidence, Finding } from '../types.js';

/** The request a result answered, as evidence: its method and the params that matter. */
export interface Asked {
  method: string;
  params?: unknown;
}

const ev = (asked: Asked, response: unknown): Evidence => ({ request: asked, response: excerpt(response) });

/**
 * `discover.shape`: `supportedVersions` a non-empty array of strings that holds the version
 * in use, `capabilities` an object whose members are objects, `instructions` a string when
 * present. (A result without the arrays at all never gets this far: the client refuses it.)
 */
export function checkDiscoverShape(result: JsonObject, versionInUse: string): Finding[] {
  const asked: Asked = { method: 'server/discover' };
  const out: Finding[] = [];
  const bad = (what: string, response: unknown) =>
    out.push(finding('discover.shape', `the server/discover result ${what}`, { key: what, data: { problem: what }, evidence: ev(asked, response) }));
  const sv = result.supportedVersions;
  if (!Array.isArray(sv) || !sv.length) bad('has no supportedVersions', { supportedVersions: sv ?? null });
  else if (!sv.every((v) => typeof v === 'string')) bad('lists a supportedVersions entry that is not a string', { supportedVersions: sv });
  else if (!sv.includes(versionInUse)) bad(`answered with version ${versionInUse} that its supportedVersions does not list`, { supportedVersions: sv });
  if (!isObject(result.capabilities)) bad('has capabilities that are not an object', { capabilities: result.capabilities ?? null });
  else
    for (const [k, v] of Object.entries(result.capabilities))
      if (!isObject(v)) bad(`declares capability ${JSON.stringify(k)} as ${JSON.stringify(v)}, not an object`, { capabilities: { [k]: v } });
  if (result.instructions !== undefined && typeof result.instructions !== 'string')
    bad('has instructions that are not a string', { instructions: result.instructions });
  return out;
}

/**
 * The envelope of one modern result: `result.type-missing` without `resultType`;
 * `meta.server-info-missing` without `_meta` serverInfo (keyed by method), `meta.server-info-invalid`
 * when it is there but lacks a string name or version.
 */
export function checkResultEnvelope(asked: Asked, result: JsonObject): Finding[] {
  const out: Finding[] = [];
  if (result.resultType === undefined)
    out.push(
      finding('result.type-missing', `the ${asked.method} result has no resultType (modern servers must send "complete" or "input_required")`, {
        key: asked.method,
        data: { method: asked.method },
        evidence: ev(asked, { keys: Object.keys(result) }),
      }),
    );
  const meta = isObject(result._meta) ? result._meta : undefined;
  const info = meta?.[META.serverInfo];
  if (info === undefined)
    out.push(
      finding('meta.server-info-missing', `the ${asked.method} result carries no _meta["${META.serverInfo}"]`, {
        key: asked.method,
        data: { method: asked.method },
        evidence: ev(asked, { _meta: meta ?? null }),
      }),
    );
  else if (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string')
    out.push(
      finding('meta.server-info-invalid', `the serverInfo of the ${asked.method} result lacks a string name or version`, {
        key: asked.method,
        data: { method: asked.method },
        evidence: ev(asked, { _meta: { [META.serverInfo]: info } }),
      }),
    );
  return out;
}

/**
 * The cache hints of a cacheable result (`server/discover`, the list methods, `resources/read`):
 * `cache.ttl-invalid` unless `ttlMs` is an integer ≥ 0 (ms), `cache.scope-invalid` unless
 * `cacheScope` is "public" or "private". Keyed by method.
 */
export function checkCacheHints(asked: Asked, result: JsonObject): Finding[] {
  const out: Finding[] = [];
  const ttl = result.ttlMs;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 0)
    out.push(
      finding(
        'cache.ttl-invalid',
        `the ${asked.method} result has ${ttl === undefined ? 'no ttlMs' : `ttlMs ${JSON.stringify(ttl)}`} (a non-negative integer of ms is required)`,
        {
          key: asked.method,
          data: { method: asked.method, ttlMs: ttl ?? null },
          evidence: ev(asked, { ttlMs: ttl ?? null }),
        },
      ),
    );
  const scope = result.cacheScope;
  if (scope !== 'public' && scope !== 'private')
    out.push(
      finding(
        'cache.scope-invalid',
        `the ${asked.method} result has ${scope === undefined ? 'no cacheScope' : `cacheScope ${JSON.stringify(scope)}`} (expected "public" or "private")`,
        {
          key: asked.method,
          data: { method: asked.method, cacheScope: scope ?? null },
          evidence: ev(asked, { cacheScope: scope ?? null }),
        },
      ),
    );
  return out;
}
