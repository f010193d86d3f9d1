/**
 * `mcp-inspect tasks list | get ID | result ID | cancel ID`: a server's tasks, for tasks that
 * outlive the call that started them (`call --task --no-wait` on an HTTP server). A stdio
 * target is refused: its tasks die with the process this command spawns.
 * spec: 2025-11-25 basic/utilities/tasks; SEP-2663 (io.modelcontextprotocol/tasks)
 */
import { UsageError } from '../../protocol/errors.js';
import type { Task } from '../../protocol/task.js';
import type { CallToolResult } from '../../protocol/types.js';
import { sanitize, sanitizeLine } from '../../util/sanitize.js';
import { formatDuration } from '../../util/format.js';
import type { CommandResult, Out } from '../output.js';
import type { Session } from '../session.js';
import type { CommonFlags } from '../options.js';
import { runOnTarget, takeUrl, type CommandSpec } from '../command.js';
import { exitCodeOf } from '../exit.js';
import { renderBlock } from './call.js';

const SUBCOMMANDS = ['list', 'get', 'result', 'cancel'] as const;
type Sub = (typeof SUBCOMMANDS)[number];

/** Why a stdio target is refused (exit 64). */
export const STDIO_TASKS =
  'tasks over stdio: a task lives in the server process mcp-inspect spawns, and that process stops when this command ends, so a task of another run is already gone. Run the server over HTTP (tasks outlive the process there), or use `mcp-inspect call --task` over stdio, which follows the task to its result within one run';

/** The body of `tasks` (its spec, with the help: ./tasks.spec.ts). */
export const tasksBody: CommandSpec<CommonFlags>['run'] = async (inv, words, flags) => {
  const { url, rest } = takeUrl(words, inv.command, flags);
  const [sub, id, ...extra] = rest;
  if (inv.command.length) throw new UsageError(STDIO_TASKS);
  if (!sub || !(SUBCOMMANDS as readonly string[]).includes(sub))
    throw new UsageError(
      `tasks: ${sub ? `unknown subcommand ${JSON.stringify(sub)}` : 'what to do?'} (expected ${SUBCOMMANDS.join(', ')}; e.g. mcp-inspect tasks URL get TASK_ID)`,
    );
  if (sub === 'list' ? id !== undefined : !id || extra.length)
    throw new UsageError(sub === 'list' ? 'tasks list takes no arguments besides the target' : `usage: mcp-inspect tasks [target] ${sub} <taskId>`);
  return runOnTarget('tasks', inv, url ? [url] : [], flags, (s) => {
    // A --server / --config entry may name a stdio server: refused as one given after --.
    if (s.target.kind === 'stdio') throw new UsageError(STDIO_TASKS);
    return run(s, sub as Sub, id);
  });
};

async function run(s: Session, sub: Sub, id: string | undefined): Promise<CommandResult> {
  const { client, out } = s;
  if (!client.taskSupport?.()) throw new UsageError('tasks: the server offers no tasks (no `tasks` capability, no io.modelcontextprotocol/tasks extension)');
  switch (sub) {
    case 'list': {
      const l = await client.listTasks!({ signal: s.signal });
      return {
        exitCode: exitCodeOf('ok'),
        json: { tasks: l.tasks, pages: l.pages, ...(l.incomplete ? { incomplete: l.incomplete } : {}) },
        text: (o) => {
          for (const t of l.tasks) o.line(taskRow(t));
          o.info(
            `${l.tasks.length} task${l.tasks.length === 1 ? '' : 's'}${l.pages > 1 ? ` in ${l.pages} pages` : ''}${l.incomplete ? ` (incomplete: ${l.incomplete})` : ''}`,
          );
        },
      };
    }
    case 'get': {
      const t = await client.getTask!(id!, { signal: s.signal });
      return {
        exitCode: exitCodeOf('ok'),
        json: { task: t },
        text: (o) => {
          for (const l of taskLines(t)) o.line(l);
          if (t.result) resultLines(t.result as CallToolResult, o);
          if (t.error) o.line(o.c.red(`error ${t.error.code}: ${sanitizeLine(t.error.message)}`));
        },
      };
    }
    case 'cancel': {
      const t = await client.cancelTask!(id!, { signal: s.signal });
      return {
        exitCode: exitCodeOf('ok'),
        json: { taskId: id, cancelled: true, task: t ?? null },
        text: (o) => o.line(t ? taskRow(t) : `${sanitizeLine(id!)} cancel acknowledged (the status shows on the next tasks get)`),
      };
    }
    case 'result': {
      const started = Date.now();
      const stop = out.wait(`task ${sanitizeLine(id!)}`);
      const r = await client.taskResult!(id!, { signal: s.signal, cancelOnAbort: false }).finally(stop);
      return {
        exitCode: exitCodeOf(r.isError ? 'tool-error' : 'ok'),
        json: { taskId: id, isError: !!r.isError, result: r, elapsedMs: Date.now() - started },
        text: (o) => {
          resultLines(r, o);
          o.info(`${r.isError ? 'tool error' : 'ok'} in ${formatDuration(Date.now() - started)}`);
        },
      };
    }
  }
}

/** `ID  status  message` for `tasks list` and `tasks cancel`. */
function taskRow(t: Task): string {
  return `${sanitizeLine(t.taskId)}  ${t.status}${t.statusMessage ? `  ${sanitizeLine(t.statusMessage)}` : ''}`;
}

/** The fields of one task, a line each. */
function taskLines(t: Task): string[] {
  const l = [`taskId         ${sanitizeLine(t.taskId)}`, `status         ${t.status}`];
  if (t.statusMessage) l.push(`statusMessage  ${sanitizeLine(t.statusMessage)}`);
  if (t.createdAt) l.push(`createdAt      ${sanitizeLine(t.createdAt)}`);
  if (t.lastUpdatedAt) l.push(`lastUpdatedAt  ${sanitizeLine(t.lastUpdatedAt)}`);
  if (t.ttlMs !== undefined) l.push(`ttl            ${t.ttlMs === null ? 'unlimited' : `${t.ttlMs} ms`}`);
  if (t.pollIntervalMs !== undefined) l.push(`pollInterval   ${t.pollIntervalMs} ms`);
  return l;
}

/** A tool's result as `call` prints it (content blocks, then structuredContent). */
function resultLines(r: CallToolResult, o: Out): void {
  for (const b of Array.isArray(r.content) ? r.content : []) for (const l of renderBlock(b, o)) o.line(r.isError ? o.c.red(l) : l);
  if (r.structuredContent !== undefined) {
    o.line(o.c.dim('structuredContent:'));
    for (const l of sanitize(JSON.stringify(r.structuredContent, null, 2)).split('\n')) o.line(`  ${l}`);
  }
}
