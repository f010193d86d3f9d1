/**
 * `mcp-inspect tools`: one line per tool (all pages), or full schemas with `--schema`.
 * spec: server/tools#listing-tools
 */
import type { Tool } from '../../protocol/types.js';
import { displayName, toolHints } from '../../protocol/tool.js';
import { sanitize, sanitizeLine } from '../../util/sanitize.js';
import type { CommandResult, Out } from '../output.js';
import type { Session } from '../session.js';
import { type CommonFlags } from '../options.js';
import { runOnTarget, type CommandSpec } from '../command.js';
import { EXIT } from '../exit.js';
import { LIST_KINDS } from '../../protocol/list-kinds.js';

export interface ToolsFlags extends CommonFlags {
  schema?: boolean;
}

/** The body of `tools` (its spec, with the help: ./tools.spec.ts). */
export const toolsBody: CommandSpec<ToolsFlags>['run'] = (inv, words, flags) => runOnTarget('tools', inv, words, flags, (s) => listTools(s, flags));

/** Required argument names of a tool's inputSchema. */
export function requiredArgs(t: Tool): string[] {
  const req = (t.inputSchema as { required?: unknown })?.required;
  return Array.isArray(req) ? req.filter((x): x is string => typeof x === 'string').map((x) => sanitizeLine(x)) : [];
}

/** Annotation hints as labels; the server's unverified claims. */
export function hintLabels(t: Tool): string[] {
  return toolHints(t).map((h) => h.long);
}

function toolLine(t: Tool, out: Out): string {
  const name = sanitizeLine(t.name);
  const title = displayName(t) !== name ? ` ${out.c.dim(`“${displayName(t)}”`)}` : '';
  const desc =
    typeof t.description === 'string'
      ? (sanitize(t.description)
          .split('\n')
          .map((l) => l.trim())
          .find(Boolean) ?? '')
      : '';
  const req = requiredArgs(t);
  const hints = hintLabels(t);
  const parts = [out.c.bold(name) + title];
  if (desc) parts.push(`— ${desc.length > 100 ? desc.slice(0, 99) + '…' : desc}`);
  if (req.length) parts.push(out.c.dim(`(requires ${req.join(', ')})`));
  if (hints.length) parts.push(out.c.yellow(`[hints: ${hints.join(', ')}]`));
  return parts.join(' ');
}

/** Fetches every page of `tools/list`: JSON `{tools, dropped, pages, ttlMs, cacheScope, incomplete?}`, or one line per tool. spec: server/tools#listing-tools */
export async function listTools(s: Session, opts: { schema?: boolean }): Promise<CommandResult> {
  const stop = s.out.wait(LIST_KINDS.tools.method);
  const list = await s.client.listTools({ signal: s.signal }).finally(stop);
  return {
    exitCode: EXIT.ok,
    json: {
      tools: list.tools,
      dropped: list.dropped,
      pages: list.pages,
      ttlMs: list.ttlMs ?? null,
      cacheScope: list.cacheScope ?? null,
      ...(list.incomplete && { incomplete: true }),
    },
    text: (out) => {
      if (!list.tools.length) out.line(out.c.dim('(the server lists no tools)'));
      for (const t of list.tools) {
        out.line(toolLine(t, out));
        if (opts.schema) {
          const show = {
            inputSchema: t.inputSchema,
            ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
            ...(t.annotations ? { annotations: t.annotations } : {}),
          };
          for (const l of sanitize(JSON.stringify(show, null, 2)).split('\n')) out.line(`    ${l}`);
        }
      }
      for (const d of list.dropped) out.line(out.c.red(`✗ ${sanitizeLine(d.name)} left out: ${sanitizeLine(d.reason)}`));
      out.line(
        out.c.dim(
          `${list.tools.length} tool${list.tools.length === 1 ? '' : 's'}${list.pages > 1 ? ` in ${list.pages} pages` : ''}${list.dropped.length ? `, ${list.dropped.length} left out for invalid x-mcp-header` : ''}`,
        ),
      );
      if (list.incomplete)
        out.line(
          out.c.yellow(
            `incomplete: ${list.incomplete === 'loop' ? 'the server loops (the same page and cursor again)' : 'stopped at the page cap'}; more tools may exist`,
          ),
        );
    },
  };
}
