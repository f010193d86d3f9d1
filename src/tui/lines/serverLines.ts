/**
 * The server pane as styled lines: identity, era and versions, capabilities with what each
 * one means, cache hints (ttlMs as time left until stale, counted from `fetchedAt`),
 * instructions (wrapped), and the raw discover / initialize answer.
 * spec: basic/lifecycle#discovery (server/discover), basic/utilities/caching (ttlMs, cacheScope)
 */
import type { ServerDescription } from '../../client/types.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { hangLines, jsonLines, line, textLines, type Line } from './lines.js';
import { formatAge } from './text.js';
import { formatDuration } from '../../util/format.js';
import { append } from '../../util/array.js';

const CAPABILITY_MEANING: Record<string, string> = {
  tools: 'offers tools (tools/list, tools/call)',
  prompts: 'offers prompt templates (prompts/list, prompts/get)',
  resources: 'offers resources (resources/list, resources/read)',
  logging: 'can send log messages (notifications/message) for requests that set a log level',
  completions: 'completes arguments (completion/complete)',
  tasks: 'runs requests as tasks: a call answers with a task to poll (tasks/get, tasks/result, tasks/list, tasks/cancel; 2025-11-25)',
  experimental: 'non-standard features, not defined by the spec',
};

const SUB_MEANING: Record<string, string> = {
  listChanged: 'notifies when the list changes (subscriptions/listen)',
  subscribe: 'notifies when a subscribed resource changes',
};

/** The legacy era's words where they differ: a legacy server sets its log level once, by logging/setLevel. */
const LEGACY_MEANING: Record<string, string> = {
  logging: 'can send log messages (notifications/message) at the level set by logging/setLevel',
};

/** What a capability means in the server's era (default modern), or undefined for one the spec does not define. */
export function capabilityMeaning(name: string, era: 'modern' | 'legacy' = 'modern'): string | undefined {
  return (era === 'legacy' ? LEGACY_MEANING[name] : undefined) ?? CAPABILITY_MEANING[name];
}

/**
 * Cache status of the description: `ttlMs` is a lifetime from `fetchedAt`; returns e.g.
 * `fresh for 42s` / `stale for 5s` / `not cacheable (ttlMs 0)`; undefined without ttlMs.
 */
export function cacheStatus(ttlMs: number | undefined, fetchedAt: number, now: number): string | undefined {
  if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs)) return undefined;
  if (ttlMs <= 0) return 'not cacheable (ttlMs 0)';
  const left = fetchedAt + ttlMs - now;
  return left > 0 ? `fresh for ${formatDuration(left)}` : `stale for ${formatDuration(-left)}`;
}

/** Builds the server pane for a width in columns; `now` in ms since epoch. */
export function serverLines(d: ServerDescription, now: number, width: number): Line[] {
  const out: Line[] = [];
  const kv = (k: string, v: string, style?: Parameters<typeof line>[1]): Line[] => hangLines([{ text: k.padEnd(22), style: 'muted' }], v, width, style);
  const info = d.serverInfo;
  const name = info ? sanitizeLine(`${info.title ? `${info.title} (${info.name})` : info.name} ${info.version ?? ''}`.trim()) : '(no serverInfo)';
  out.push(line('Server', 'title'));
  append(out, kv('  name', name));
  if (info?.description && typeof info.description === 'string') append(out, kv('  description', sanitizeLine(info.description)));
  if (info?.websiteUrl && typeof info.websiteUrl === 'string') append(out, kv('  website', sanitizeLine(info.websiteUrl)));
  append(out, kv('  era', d.era === 'modern' ? 'modern (stateless, server/discover)' : 'legacy (initialize handshake)'));
  append(out, kv('  protocol version', sanitizeLine(d.protocolVersion)));
  append(out, kv('  supported versions', d.supportedVersions.length ? d.supportedVersions.map((v) => sanitizeLine(String(v))).join(', ') : '(none listed)'));
  append(out, kv('  transport', d.transport));
  out.push([]);

  out.push(line('Capabilities', 'title'));
  const caps = d.capabilities ?? {};
  const names = Object.keys(caps);
  if (names.length === 0) out.push(line('  (none declared)', 'muted'));
  for (const cap of names) {
    const v = caps[cap];
    const meaning = capabilityMeaning(cap, d.era);
    out.push(
      ...hangLines([{ text: `  ${sanitizeLine(cap).padEnd(14)}  `, style: meaning ? 'accent' : 'warn' }], meaning ?? 'not defined by the spec', width, 'muted'),
    );
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        // A legacy server has no subscriptions/listen: its list_changed notifications come unsolicited.
        const sub =
          cap === 'experimental'
            ? undefined
            : k === 'listChanged' && d.era === 'legacy'
              ? `sends notifications/${sanitizeLine(cap)}/list_changed when the list changes (unsolicited)`
              : SUB_MEANING[k];
        if (typeof x === 'boolean') {
          out.push(
            ...hangLines(
              [{ text: `      ${sanitizeLine(k)} ` }, { text: x ? '✓' : '✗', style: x ? 'ok' : 'muted' }, { text: '  ' }],
              sub ?? '',
              width,
              'muted',
            ),
          );
        } else {
          out.push(line(`      ${sanitizeLine(k)}:`));
          append(out, jsonLines(x, width, 8));
        }
      }
    }
  }
  out.push([]);

  out.push(line('Cache hints', 'title'));
  const status = cacheStatus(d.ttlMs, d.fetchedAt, now);
  if (status) {
    out.push([
      { text: '  ttlMs'.padEnd(22), style: 'muted' },
      { text: `${d.ttlMs} (${formatDuration(d.ttlMs ?? 0)})  ` },
      { text: status, style: status.startsWith('fresh') ? 'ok' : 'warn' },
    ]);
  } else append(out, kv('  ttlMs', '(not given)'));
  append(out, kv('  cacheScope', d.cacheScope ? sanitizeLine(d.cacheScope) : '(not given)'));
  append(out, kv('  fetched', formatAge(now - d.fetchedAt)));
  out.push([]);

  out.push(line('Instructions', 'title'));
  if (d.instructions && d.instructions.trim()) append(out, textLines(d.instructions, width, 2));
  else out.push(line('  (none)', 'muted'));
  out.push([]);

  out.push(line(d.era === 'modern' ? 'Raw server/discover result' : 'Raw initialize result', 'title'));
  append(out, jsonLines(d.raw, width, 2, 'muted'));
  return out;
}
