/**
 * `mcp-inspect prompts`: list every prompt (all pages) with its arguments; `prompts get NAME
 * key=value…` the messages with their roles and content blocks (input rounds answered as for
 * `call`); `prompts complete NAME ARG=PREFIX` the server's suggestions for an argument.
 * spec: server/prompts, server/utilities/completion
 */
import { McpError, UsageError } from '../../protocol/errors.js';
import type { ContentBlock, Prompt } from '../../protocol/types.js';
import type { GetPromptResult } from '../../protocol/prompt.js';
import { sanitize, sanitizeLine } from '../../util/sanitize.js';
import type { CommandResult, Out } from '../output.js';
import type { Session } from '../session.js';
import { type CommonFlags } from '../options.js';
import { runOnTarget, takeUrl, targetFirst, type CommandSpec } from '../command.js';
import { EXIT } from '../exit.js';
import type { ResumeRound } from '../../client/types.js';
import { whenOffered } from '../offered.js';
import { LIST_KINDS } from '../../protocol/list-kinds.js';
import { reportUndeclared, type StrictArgsFlags } from '../strict-args.js';
import { closest } from '../../util/distance.js';

export interface PromptsFlags extends CommonFlags, StrictArgsFlags {
  /** `--no-validate`: send `prompts/get` without checking the name and the required arguments against the prompt list. */
  validate?: boolean;
}

const SUBCOMMANDS = ['get', 'complete'] as const;

/** The body of `prompts` (its spec, with the help: ./prompts.spec.ts). */
export const promptsBody: CommandSpec<PromptsFlags>['run'] = async (inv, words, flags) => {
  // The target anywhere, as for `call` (a prompt name or key=value pair is never a URL).
  const { url, rest } = takeUrl(targetFirst(words), inv.command, flags, 'mcp-inspect prompts get NAME http://127.0.0.1:3000/mcp');
  const [sub, name, ...pairs] = rest;
  const on = (body: (s: Session) => Promise<CommandResult>) => runOnTarget('prompts', inv, url ? [url] : [], flags, body);
  if (sub === undefined) return on((s) => listPrompts(s));
  if (!(SUBCOMMANDS as readonly string[]).includes(sub))
    throw new UsageError(`prompts: unknown subcommand ${JSON.stringify(sub)} (expected ${SUBCOMMANDS.join(', ')}, or nothing to list)`);
  if (sub === 'get') {
    if (flags.resume !== undefined) {
      if (name !== undefined) throw new UsageError('--resume continues the saved prompts/get: give no name or arguments');
      return on(async (s) => {
        const { loadResume, withResumeHint } = await import('../resume.js');
        const r = loadResume(flags.resume!, 'prompts/get', s);
        const args = (r.params.arguments && typeof r.params.arguments === 'object' ? r.params.arguments : {}) as Record<string, string>;
        return withResumeHint(s, r, () => getPrompt(s, String(r.params.name ?? ''), args, r.round));
      });
    }
    if (!name) throw new UsageError('which prompt? usage: mcp-inspect prompts get <name> [key=value…]');
    const args = stringPairs(pairs, 'prompts get');
    return on((s) => getPrompt(s, name, args, undefined, flags));
  }
  const [pair, ...context] = pairs;
  if (!name || !pair) throw new UsageError('usage: mcp-inspect prompts complete <name> <arg=prefix> [key=value…]');
  const [arg] = Object.entries(stringPairs([pair], 'prompts complete'));
  const ctx = stringPairs(context, 'prompts complete');
  return on((s) => completePrompt(s, name, arg[0], arg[1], ctx));
};

/** `key=value` pairs as strings (prompt arguments are always strings). Throws UsageError for a pair without `=` or a key given twice. */
export function stringPairs(pairs: readonly string[], cmd: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const eq = p.indexOf('=');
    if (eq <= 0) throw new UsageError(`${cmd}: write key=value (got ${JSON.stringify(p)})`);
    const k = p.slice(0, eq);
    if (Object.hasOwn(out, k)) throw new UsageError(`${cmd}: ${k} is given more than once`);
    out[k] = p.slice(eq + 1);
  }
  return out;
}

function promptLine(p: Prompt, out: Out): string {
  const parts = [out.c.bold(sanitizeLine(p.name))];
  if (typeof p.title === 'string' && p.title && p.title !== p.name) parts.push(out.c.dim(`“${sanitizeLine(p.title)}”`));
  const d = typeof p.description === 'string' ? (sanitize(p.description).split('\n').find(Boolean) ?? '') : '';
  if (d) parts.push(`— ${d.length > 100 ? d.slice(0, 99) + '…' : d}`);
  const args = Array.isArray(p.arguments) ? p.arguments.filter((a) => a && typeof a.name === 'string') : [];
  if (args.length) parts.push(out.c.dim(`(${args.map((a) => `${sanitizeLine(a.name)}${a.required ? '*' : ''}`).join(', ')})`));
  return parts.join(' ');
}

async function listPrompts(s: Session): Promise<CommandResult> {
  const { cacheHint } = await import('./resources.js');
  const stop = s.out.wait(LIST_KINDS.prompts.method);
  const list = await whenOffered(s, 'prompts', () => s.client.listPrompts({ signal: s.signal })).finally(stop);
  cacheHint(s.out, LIST_KINDS.prompts.method, list);
  return {
    exitCode: EXIT.ok,
    json: { prompts: list.items, pages: list.pages, ttlMs: list.ttlMs ?? null, cacheScope: list.cacheScope ?? null },
    text: (out) => {
      if (!list.items.length) out.line(out.c.dim('(the server lists no prompts)'));
      for (const p of list.items) out.line(promptLine(p, out));
      out.line(out.c.dim(`${list.items.length} prompt${list.items.length === 1 ? '' : 's'}${list.pages > 1 ? ` in ${list.pages} pages` : ''}`));
    },
  };
}

/**
 * Checks a `prompts/get` against the prompt list before sending it: a name the server does not
 * list is refused with a did-you-mean, and so is a missing required argument (UsageError, exit
 * 64; `--no-validate` sends anyway); an argument the prompt does not declare is warned about
 * (refused with `--strict-args`). A server whose prompt list fails is not checked (the get
 * itself then says what is wrong).
 * spec: server/prompts#listing-prompts, server/prompts#getting-a-prompt
 */
async function checkPromptArguments(s: Session, name: string, args: Record<string, string>, flags: PromptsFlags): Promise<void> {
  const validate = flags.validate !== false;
  let prompts: Prompt[];
  try {
    prompts = (await s.client.listPrompts({ signal: s.signal })).items;
  } catch (e) {
    if (e instanceof McpError) return;
    throw e;
  }
  const prompt = prompts.find((p) => p.name === name);
  if (!prompt) {
    if (!validate) return;
    const names = prompts.map((p) => sanitizeLine(p.name));
    const near = closest(name, names);
    throw new UsageError(
      `the server has no prompt named ${JSON.stringify(name)}${near.length ? `; did you mean ${near.join(', ')}?` : names.length ? `; it has: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}` : ''} (--no-validate sends it anyway)`,
    );
  }
  const declared = (Array.isArray(prompt.arguments) ? prompt.arguments : []).filter((a) => a && typeof a.name === 'string');
  const names = declared.map((a) => a.name);
  const undeclared = Object.keys(args)
    .filter((k) => !names.includes(k))
    .map((key) => ({ key, near: closest(key, names) }));
  const missing = declared.filter((a) => a.required === true && !Object.hasOwn(args, a.name)).map((a) => sanitizeLine(a.name));
  if (missing.length && validate) {
    const { undeclaredArgumentMessage } = await import('../../check/rules/input.js');
    const hints = undeclared.filter((u) => u.near.length).map((u) => `; ${undeclaredArgumentMessage({ kind: 'prompt', name }, u)}`);
    throw new UsageError(
      `prompt ${sanitizeLine(name)} requires ${missing.join(', ')}: give ${missing.map((m) => `${m}=VALUE`).join(' ')}${hints.join('')} (--no-validate sends it without)`,
    );
  }
  await reportUndeclared(s, flags, { kind: 'prompt', name }, undeclared);
}

/** `prompts/get`: each message as `role:` and its content block (rendered as `call` renders blocks). */
export async function getPrompt(s: Session, name: string, args: Record<string, string>, resume?: ResumeRound, flags?: PromptsFlags): Promise<CommandResult> {
  const { renderBlock } = await import('./call.js');
  if (!resume && flags) await checkPromptArguments(s, name, args, flags);
  const stop = s.out.wait(`prompts/get ${name}`);
  const r: GetPromptResult = await whenOffered(s, 'prompts', () => s.client.getPrompt(name, args, { signal: s.signal, resume })).finally(stop);
  return {
    exitCode: EXIT.ok,
    json: { name, arguments: args, description: r.description ?? null, messages: r.messages },
    text: (out) => {
      if (typeof r.description === 'string') out.line(out.c.dim(sanitizeLine(r.description)));
      if (!r.messages.length) out.line(out.c.dim('(no messages)'));
      for (const m of r.messages) {
        out.line(out.c.bold(`${sanitizeLine(String(m.role))}:`));
        // One block per the spec; an array is tolerated (some servers send one).
        const blocks: ContentBlock[] = Array.isArray(m.content) ? (m.content as ContentBlock[]) : [m.content];
        for (const b of blocks) for (const l of renderBlock(b, out)) out.line(`  ${l}`);
      }
    },
  };
}

async function completePrompt(s: Session, name: string, arg: string, value: string, context: Record<string, string>): Promise<CommandResult> {
  const { completionResult } = await import('./resources.js');
  const stop = s.out.wait('completion/complete');
  const r = await whenOffered(s, 'completions', () =>
    s.client.complete({ type: 'ref/prompt', name }, { name: arg, value }, Object.keys(context).length ? { arguments: context } : undefined, {
      signal: s.signal,
    }),
  ).finally(stop);
  return completionResult(r, { ref: { type: 'ref/prompt', name }, argument: { name: arg, value } });
}
