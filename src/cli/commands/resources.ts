/**
 * `mcp-inspect resources`: list every resource (all pages); `resources templates` the
 * resource templates; `resources read URI|TEMPLATE [key=value…]` one resource (text shown,
 * blobs as mime type and size, `-o FILE` writes the decoded bytes; a template is expanded from
 * the pairs, RFC 6570); `resources complete TEMPLATE VAR=PREFIX` the server's suggestions for a
 * template variable. Input rounds of resources/read are answered as for `call`.
 * spec: server/resources, server/utilities/completion
 */
import { UsageError, McpError } from '../../protocol/errors.js';
import type { Resource, ResourceTemplate } from '../../protocol/types.js';
import { decodeBlob, isResourceNotFound, type ReadResourceResult } from '../../protocol/resource.js';
import { emptyRequiredVariables, expandUriTemplate, isUriTemplate, parseUriTemplate, templateValuesFromPairs } from '../../protocol/uri-template.js';
import { closest } from '../../util/distance.js';
import type { StrictArgsFlags } from '../strict-args.js';
import { sanitize, sanitizeLine } from '../../util/sanitize.js';
import type { CommandResult, Out } from '../output.js';
import type { Session } from '../session.js';
import { type CommonFlags } from '../options.js';
import { runOnTarget, takeUrl, targetFirst, type CommandSpec } from '../command.js';
import { EXIT } from '../exit.js';
import { whenOffered } from '../offered.js';
import { LIST_KINDS } from '../../protocol/list-kinds.js';

export interface ResourcesFlags extends CommonFlags, StrictArgsFlags {
  output?: string;
}

const SUBCOMMANDS = ['templates', 'read', 'complete'] as const;

/** The body of `resources` (its spec, with the help: ./resources.spec.ts). */
export const resourcesBody: CommandSpec<ResourcesFlags>['run'] = async (inv, words, flags) => {
  // The target anywhere, as for `call`; the word after `read`/`complete` is the resource (a URL too, maybe).
  const operand = words[0] === 'read' || words[0] === 'complete' ? 1 : undefined;
  const { url, rest } = takeUrl(targetFirst(words, operand), inv.command, flags, 'mcp-inspect resources read URI http://127.0.0.1:3000/mcp');
  const [sub, ...args] = rest;
  const on = (body: (s: Session) => Promise<CommandResult>, check?: () => void) => runOnTarget('resources', inv, url ? [url] : [], flags, body, check);
  if (sub === undefined) return on((s) => listResources(s));
  if (!(SUBCOMMANDS as readonly string[]).includes(sub))
    throw new UsageError(`resources: unknown subcommand ${JSON.stringify(sub)} (expected ${SUBCOMMANDS.join(', ')}, or nothing to list)`);
  if (sub === 'templates') {
    if (args.length) throw new UsageError('resources templates takes no arguments besides the target');
    return on((s) => listTemplates(s));
  }
  if (sub === 'read') {
    if (flags.resume !== undefined) {
      if (args.length) throw new UsageError('--resume continues the saved read: give no URI');
      return on(async (s) => {
        const { loadResume, withResumeHint } = await import('../resume.js');
        const r = loadResume(flags.resume!, 'resources/read', s);
        return withResumeHint(s, r, () => readResource(s, String(r.params.uri ?? ''), flags, r.round));
      });
    }
    const [target, ...pairs] = args;
    if (!target) throw new UsageError('which resource? usage: mcp-inspect resources read <uri|template> [key=value…]');
    const uri = uriOf(target, pairs);
    return on((s) => readResource(s, uri, flags));
  }
  const [template, pair, ...extra] = args;
  if (!template || !pair || extra.length) throw new UsageError('usage: mcp-inspect resources complete <template> <var=prefix>');
  const eq = pair.indexOf('=');
  if (eq <= 0) throw new UsageError(`resources complete: write VAR=PREFIX (got ${JSON.stringify(pair)})`);
  return on((s) => completeTemplate(s, template, pair.slice(0, eq), pair.slice(eq + 1)));
};

/** The URI to read: `target` itself, or the template `target` expanded from `pairs`. Throws UsageError for pairs a plain URI does not take, unknown or malformed pairs. */
export function uriOf(target: string, pairs: string[]): string {
  if (!isUriTemplate(target)) {
    if (pairs.length) throw new UsageError(`${JSON.stringify(target)} is not a template: key=value pairs go with a uriTemplate such as 'x://items/{id}'`);
    return target;
  }
  const info = parseUriTemplate(target);
  if (info.error) throw new UsageError(`not a valid URI template (${info.error}): ${JSON.stringify(target)}`);
  const v = templateValuesFromPairs(info, pairs);
  if (v.malformed.length) throw new UsageError(`write key=value (got ${v.malformed.map((m) => JSON.stringify(m)).join(', ')})`);
  const names = info.variables.map((x) => x.name);
  if (v.unknown.length) {
    const near = [...new Set(v.unknown.flatMap((u) => closest(u, names)))];
    throw new UsageError(
      `the template has no variable ${v.unknown.map((u) => JSON.stringify(u)).join(', ')}; it has ${names.join(', ') || 'none'}${near.length ? `; did you mean ${near.join(' or ')}?` : ''}`,
    );
  }
  // An empty path variable expands to nothing and reads another URI; only {?q} may be empty.
  const empty = emptyRequiredVariables(info, v.values);
  if (empty.length)
    throw new UsageError(
      `the template variable${empty.length > 1 ? 's' : ''} ${empty.map((e) => JSON.stringify(e)).join(', ')} ${empty.length > 1 ? 'are' : 'is'} empty: give ${empty.map((e) => `${e}=VALUE`).join(' ')} (only a {?query} variable may be left out)`,
    );
  return expandUriTemplate(target, v.values);
}

/** The caching hints as a stderr line (scripted commands always fetch fresh; they only tell). */
export function cacheHint(out: Out, what: string, h: { ttlMs?: number; cacheScope?: string }): void {
  if (h.ttlMs === undefined && h.cacheScope === undefined) return;
  out.info(`${what}: cacheable for ${h.ttlMs ?? 0} ms${h.cacheScope ? ` (${sanitizeLine(h.cacheScope)})` : ''} per the server; fetched fresh`);
}

function oneLine(s: unknown, max = 100): string {
  if (typeof s !== 'string') return '';
  const l =
    sanitize(s)
      .split('\n')
      .map((x) => x.trim())
      .find(Boolean) ?? '';
  return l.length > max ? l.slice(0, max - 1) + '…' : l;
}

async function listResources(s: Session): Promise<CommandResult> {
  const stop = s.out.wait(LIST_KINDS.resources.method);
  const list = await whenOffered(s, 'resources', () => s.client.listResources({ signal: s.signal })).finally(stop);
  cacheHint(s.out, LIST_KINDS.resources.method, list);
  return {
    exitCode: EXIT.ok,
    json: { resources: list.items, pages: list.pages, ttlMs: list.ttlMs ?? null, cacheScope: list.cacheScope ?? null },
    text: (out) => {
      if (!list.items.length) out.line(out.c.dim('(the server lists no resources)'));
      for (const r of list.items) out.line(resourceLine(r, out));
      out.line(out.c.dim(`${list.items.length} resource${list.items.length === 1 ? '' : 's'}${list.pages > 1 ? ` in ${list.pages} pages` : ''}`));
    },
  };
}

function resourceLine(r: Resource | ResourceTemplate, out: Out): string {
  const uri = sanitizeLine(String('uri' in r ? r.uri : r.uriTemplate));
  const name = typeof r.title === 'string' ? r.title : r.name;
  const parts = [out.c.bold(uri)];
  if (typeof name === 'string' && name) parts.push(out.c.dim(`“${sanitizeLine(name)}”`));
  if (typeof r.mimeType === 'string') parts.push(out.c.dim(`(${sanitizeLine(r.mimeType)})`));
  if ('size' in r && typeof r.size === 'number') parts.push(out.c.dim(`${r.size} bytes`));
  const d = oneLine(r.description);
  if (d) parts.push(`— ${d}`);
  return parts.join(' ');
}

async function listTemplates(s: Session): Promise<CommandResult> {
  const stop = s.out.wait(LIST_KINDS.resourceTemplates.method);
  const list = await whenOffered(s, 'resources', () => s.client.listResourceTemplates({ signal: s.signal })).finally(stop);
  cacheHint(s.out, LIST_KINDS.resourceTemplates.method, list);
  return {
    exitCode: EXIT.ok,
    json: { resourceTemplates: list.items, pages: list.pages, ttlMs: list.ttlMs ?? null, cacheScope: list.cacheScope ?? null },
    text: (out) => {
      if (!list.items.length) out.line(out.c.dim('(the server lists no resource templates)'));
      for (const t of list.items) {
        out.line(resourceLine(t, out));
        const info = parseUriTemplate(t.uriTemplate);
        if (info.variables.length) out.line(out.c.dim(`    variables: ${info.variables.map((v) => sanitizeLine(v.name)).join(', ')}`));
        else if (info.error) out.line(out.c.yellow(`    not a valid URI template: ${sanitizeLine(info.error)}`));
      }
      out.line(out.c.dim(`${list.items.length} template${list.items.length === 1 ? '' : 's'}${list.pages > 1 ? ` in ${list.pages} pages` : ''}`));
    },
  };
}

/** Bytes of one content entry: the decoded blob, or the text as UTF-8. */
function bytesOf(c: ReadResourceResult['contents'][number]): Uint8Array {
  if (typeof c.blob === 'string') return decodeBlob(c.blob);
  return new Uint8Array(Buffer.from(typeof c.text === 'string' ? c.text : '', 'utf8'));
}

/**
 * `resources/read URI`: text entries shown, blobs as mime type and size; `--output` writes the
 * bytes of every entry (decoded blobs, text as UTF-8) one after the other. "Not found"
 * (-32602 modern, -32002 legacy) is said as such (exit 2).
 */
export async function readResource(
  s: Session,
  uri: string,
  flags: ResourcesFlags,
  resume?: import('../../client/types.js').ResumeRound,
): Promise<CommandResult> {
  const stop = s.out.wait(`resources/read ${uri}`);
  let result: ReadResourceResult;
  try {
    result = await whenOffered(s, 'resources', () => s.client.readResource(uri, { signal: s.signal, resume })).finally(stop);
  } catch (e) {
    if (e instanceof McpError && isResourceNotFound(e.rpcCode)) {
      throw new McpError({ code: e.rpcCode, message: `resource not found: ${uri} (${e.message})`, data: e.data }, e.httpStatus, e.method ?? 'resources/read');
    }
    throw e;
  }
  cacheHint(s.out, 'resources/read', result);
  let written: number | undefined;
  if (flags.output !== undefined) {
    const { writeOutputFile } = await import('../output-file.js');
    const parts = result.contents.map(bytesOf);
    written = writeOutputFile(flags.output, Buffer.concat(parts));
  }
  return {
    exitCode: EXIT.ok,
    json: { uri, contents: result.contents, ...(written !== undefined ? { output: { file: flags.output, bytes: written } } : {}) },
    text: (out) => {
      if (!result.contents.length) out.line(out.c.dim('(no contents)'));
      for (const c of result.contents) {
        const mime = typeof c.mimeType === 'string' ? sanitizeLine(c.mimeType) : 'no mime type';
        if (typeof c.blob === 'string') {
          out.line(`${out.c.dim('[blob]')} ${sanitizeLine(String(c.uri))} ${out.c.dim(`(${mime}, ${decodeBlob(c.blob).length} bytes)`)}`);
        } else {
          if (result.contents.length > 1 || written !== undefined) out.line(out.c.dim(`[text] ${sanitizeLine(String(c.uri))} (${mime})`));
          if (written === undefined) for (const l of sanitize(typeof c.text === 'string' ? c.text : '').split('\n')) out.line(l);
        }
      }
      if (written !== undefined) out.info(`wrote ${written} bytes to ${sanitizeLine(flags.output!)}`);
    },
  };
}

async function completeTemplate(s: Session, template: string, name: string, value: string): Promise<CommandResult> {
  const stop = s.out.wait('completion/complete');
  const r = await whenOffered(s, 'completions', () =>
    s.client.complete({ type: 'ref/resource', uri: template }, { name, value }, undefined, { signal: s.signal }),
  ).finally(stop);
  return completionResult(r, { ref: { type: 'ref/resource', uri: template }, argument: { name, value } });
}

/** The output of `prompts complete` and `resources complete`: one value a line, then how many more there are. */
export function completionResult(r: import('../../client/types.js').CompletionResult, asked: Record<string, unknown>): CommandResult {
  return {
    exitCode: EXIT.ok,
    json: { ...asked, values: r.values, total: r.total ?? null, hasMore: r.hasMore ?? false },
    text: (out) => {
      if (!r.values.length) out.line(out.c.dim('(no suggestions)'));
      for (const v of r.values) out.line(sanitizeLine(v));
      if (r.hasMore || (r.total !== undefined && r.total > r.values.length))
        out.line(out.c.dim(`… ${r.total !== undefined ? `${r.total} in all` : 'more'} (type a longer prefix)`));
    },
  };
}
