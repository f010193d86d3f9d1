/**
 * `mcp-inspect discover`: what the server is — name/version, era, versions, transport,
 * capabilities as a readable tree, instructions, cache hints.
 * spec: server/discover (2026-07-28); legacy: initialize result (2025-11-25)
 */
import type { ServerDescription } from '../../client/types.js';
import type { JsonObject } from '../../protocol/types.js';
import { sanitize, sanitizeLine } from '../../util/sanitize.js';
import type { CommandResult, Out } from '../output.js';
import { formatDuration } from '../../util/format.js';
import type { Session } from '../session.js';
import { targetLabel } from '../target.js';
import { runOnTarget, type CommandSpec } from '../command.js';
import { EXIT } from '../exit.js';

/** The body of `discover` (its spec, with the help: ./discover.spec.ts). */
export const discoverBody: CommandSpec['run'] = (inv, words, flags) => runOnTarget('discover', inv, words, flags, (s) => describeServer(s));

/** What each well-known capability means, in one phrase. */
const CAPABILITY_MEANING: Record<string, string> = {
  tools: 'offers tools (tools/list, tools/call)',
  prompts: 'offers prompts (prompts/list, prompts/get)',
  resources: 'offers resources (resources/list, resources/read)',
  logging: 'can send log messages (notifications/message)',
  completions: 'can complete arguments (completion/complete)',
  experimental: 'non-standard, experimental features',
  extensions: 'protocol extensions',
  'tools.listChanged': 'announces tool list changes (on subscriptions/listen; legacy: unsolicited)',
  'prompts.listChanged': 'announces prompt list changes',
  'resources.listChanged': 'announces resource list changes',
  'resources.subscribe': 'announces updates of single resources (notifications/resources/updated)',
};

/** Renders a capabilities object as indented lines with a meaning for known keys. */
export function capabilityTree(caps: JsonObject, out: Out, indent = '  ', path = ''): string[] {
  const lines: string[] = [];
  const entries = Object.entries(caps ?? {});
  if (!entries.length && !path) return [`${indent}${out.c.dim('(none)')}`];
  for (const [k, v] of entries) {
    const key = path ? `${path}.${k}` : k;
    const meaning = CAPABILITY_MEANING[key];
    const name = sanitizeLine(k);
    if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length) {
      lines.push(`${indent}${out.c.bold(name)}${meaning ? out.c.dim(`  ${meaning}`) : ''}`);
      lines.push(...capabilityTree(v as JsonObject, out, indent + '  ', key));
    } else {
      const val = v && typeof v === 'object' ? '' : `: ${sanitizeLine(JSON.stringify(v))}`;
      lines.push(`${indent}${path ? name : out.c.bold(name)}${val}${meaning ? out.c.dim(`  ${meaning}`) : ''}`);
    }
  }
  return lines;
}

/** Human-readable description of the server. */
export function renderDescription(d: ServerDescription, out: Out, where: string): string[] {
  const info = d.serverInfo;
  const name = info ? `${sanitizeLine(info.name)} ${sanitizeLine(String(info.version ?? ''))}`.trim() : '(the server sent no serverInfo)';
  const title = info?.title ? `  ${out.c.dim(sanitizeLine(String(info.title)))}` : '';
  const row = (k: string, v: string) => `  ${k.padEnd(12)}${v}`;
  const lines = [out.c.bold(name) + title];
  lines.push(row('era', d.era === 'modern' ? 'modern (stateless, per-request _meta)' : 'legacy (initialize handshake)'));
  lines.push(row('protocol', d.protocolVersion));
  lines.push(row('supported', d.supportedVersions.map((v) => sanitizeLine(v)).join(', ') || '(none listed)'));
  lines.push(row('transport', `${d.transport}  ${sanitizeLine(where)}`));
  if (d.ttlMs !== undefined || d.cacheScope) {
    lines.push(row('cache', `${d.ttlMs !== undefined ? `ttl ${formatDuration(d.ttlMs)}` : 'no ttl'}${d.cacheScope ? ` (${sanitizeLine(d.cacheScope)})` : ''}`));
  }
  lines.push('');
  lines.push(out.c.bold('capabilities'));
  lines.push(...capabilityTree(d.capabilities, out));
  if (d.instructions) {
    lines.push('');
    lines.push(out.c.bold('instructions'));
    for (const l of sanitize(d.instructions).split('\n')) lines.push(`  ${l}`);
  }
  return lines;
}

/** What the client learned when it connected: JSON (the description, with the raw result), or a readable summary. spec: server/discover */
export function describeServer(s: Session): CommandResult {
  const d = s.client.description;
  const where = targetLabel(s.target);
  return {
    exitCode: EXIT.ok,
    json: {
      serverInfo: d.serverInfo ?? null,
      era: d.era,
      protocolVersion: d.protocolVersion,
      supportedVersions: d.supportedVersions,
      transport: d.transport,
      target: where,
      capabilities: d.capabilities,
      instructions: d.instructions ?? null,
      ttlMs: d.ttlMs ?? null,
      cacheScope: d.cacheScope ?? null,
      raw: d.raw,
    },
    text: (out) => {
      for (const l of renderDescription(d, out, where)) out.line(l);
    },
  };
}
