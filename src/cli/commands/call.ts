/**
 * `mcp-inspect call <tool> [key=value …]`: coerce arguments by the tool's inputSchema,
 * validate them (Ajv, the schema's dialect), call, print every content block and the
 * structuredContent checked against outputSchema.
 * spec: server/tools#calling-tools, server/tools#structured-content
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { UsageError } from '../../protocol/errors.js';
import type { CallToolResult, ContentBlock, JsonObject, Tool } from '../../protocol/types.js';
import { coerceArgs, parseArgsJson, undeclaredArguments, undeclaredKeyHints } from '../../schema/coerce.js';
import { reportUndeclared, type StrictArgsFlags } from '../strict-args.js';
import type { ValidationIssue } from '../../schema/validate.js';
import type { OutputSchemaVerdict } from '../../check/output-schema.js';
import { sanitize, sanitizeLine } from '../../util/sanitize.js';
import type { CommandResult, Out } from '../output.js';
import { formatDuration } from '../../util/format.js';
import type { Session } from '../session.js';
import { type CommonFlags } from '../options.js';
import { runOnTarget, takeUrl, targetFirst, type CommandSpec } from '../command.js';
import { closest } from '../../util/distance.js';
import { EXIT, exitCodeOf } from '../exit.js';
import { createPalette } from '../../diff/render.js';
import { writeOut } from '../stdout.js';
import type { ResumeRound } from '../../client/types.js';
import { parseBounded } from '../../util/depth.js';
import type { CallFormat } from '../content-format.js';
import { LIST_KINDS } from '../../protocol/list-kinds.js';
import { toolTaskSupport, type Task } from '../../protocol/task.js';
import type { ProgressEvent, TaskOutcome } from '../../client/types.js';

export interface CallFlags extends StrictArgsFlags {
  args?: string;
  validate?: boolean;
  resume?: string;
  /** `--output FILE` / `-o FILE`: the tools/call result, as JSON, also goes to this file. */
  output?: string;
  /** `--format text|raw|markdown` (src/cli/content-format.ts); `--json` wins. */
  format?: CallFormat;
  /** `--save-media DIR`: image, audio and blob blocks written to files there. */
  saveMedia?: string;
  /** `--task`: run the call as a task (2025-11-25 task augmentation). */
  task?: boolean;
  /** `--no-wait` (false): print the task created and stop, instead of following it to its result. */
  wait?: boolean;
  /** `--save FILE`: append the call, its result as the expectation, to this collection (src/cli/save-call.ts). */
  save?: string;
  /** `--save-name NAME`: its name there (default: the tool's, numbered when taken). */
  saveName?: string;
}

const USAGE = 'which tool? usage: mcp-inspect call <url> <tool> [key=value…]  or  mcp-inspect call <tool> [key=value…] -- command args…';

/** The body of `call` (its spec, with the help: ./call.spec.ts). */
export const callBody: CommandSpec<CommonFlags & CallFlags>['run'] = async (inv, words, flags) => {
  // The tool name and its pairs follow the target: split them off before the target check.
  const { url, rest } = takeUrl(targetFirst(words), inv.command, flags);
  const [tool, ...pairs] = rest;
  // --save: the file must take the call before anything is sent (a broken file, a name taken).
  const save = flags.save !== undefined || flags.saveName !== undefined ? await import('../save-call.js') : undefined;
  save?.checkSaveFlags(flags);
  const saved = (s: Session, r: CommandResult) => (save ? save.saveToCollection(s, r, flags) : r);
  if (flags.resume !== undefined) {
    if (rest.length) throw new UsageError('--resume continues the saved call: give no tool name or arguments');
    return await runOnTarget('call', inv, url ? [url] : [], flags, async (s) => {
      const { loadResume, withResumeHint } = await import('../resume.js');
      const r = loadResume(flags.resume!, 'tools/call', s);
      const name = typeof r.params.name === 'string' ? r.params.name : '';
      const args = (r.params.arguments && typeof r.params.arguments === 'object' ? r.params.arguments : {}) as JsonObject;
      return saved(s, await withResumeHint(s, r, () => callTool(s, name, [], flags, { args, resume: r.round })));
    });
  }
  if (!tool) throw new UsageError(USAGE);
  return await runOnTarget('call', inv, url ? [url] : [], flags, async (s) => saved(s, await callTool(s, tool, pairs, flags)));
};

function readArgFile(path: string): string {
  try {
    return path === '-' ? readFileSync(0, 'utf8') : readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(
      `cannot read ${path === '-' ? 'standard input' : path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
    );
  }
}

/** Builds the arguments object from `--args` (JSON, @file, -) or key=value pairs. */
export function buildArguments(tool: Tool, pairs: string[], flags: CallFlags): JsonObject {
  if (flags.args !== undefined) {
    if (pairs.length) throw new UsageError('give either --args or key=value pairs, not both');
    const a = flags.args;
    if (a === '-') return parseArgsJson(readArgFile('-'), 'standard input');
    if (a.startsWith('@')) return parseArgsJson(readArgFile(a.slice(1)), a.slice(1));
    return parseArgsJson(a, '--args');
  }
  if (flags.validate !== false) return coerceArgs(tool.inputSchema, pairs, readArgFile);
  // --no-validate: type each pair by the schema where it fits, and send the rest as written
  // (JSON when it parses, else the text) so the server decides.
  const args: JsonObject = {};
  for (const pair of pairs) {
    try {
      Object.assign(args, coerceArgs(tool.inputSchema, [pair], readArgFile));
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      const i = pair.indexOf('=');
      if (i <= 0) throw e;
      const raw = pair.slice(i + 1);
      const text = raw.startsWith('@') && !raw.startsWith('@@') ? readArgFile(raw.slice(1)) : raw.replace(/^@@/, '@');
      try {
        args[pair.slice(0, i)] = JSON.parse(text);
      } catch {
        args[pair.slice(0, i)] = text;
      }
    }
  }
  return args;
}

/** Writes the result as pretty JSON to `file` (`--output`). Throws UsageError when it cannot be written. */
function writeResult(file: string, result: unknown, out: Out): void {
  try {
    writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
  } catch (e) {
    throw new UsageError(`cannot write --output ${file}: ${(e as Error).message}`);
  }
  out.info(`wrote the result to ${file}`);
}

/** Byte size of base64 data. */
function base64Bytes(b64: string): number {
  const s = b64.replace(/\s/g, '');
  return Math.floor((s.length * 3) / 4) - (s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0);
}

/** Human lines for one content block. */
export function renderBlock(b: ContentBlock, out: Out): string[] {
  const c = out.c;
  if (!b || typeof b !== 'object' || Array.isArray(b)) return [c.red(`[not a content block: ${sanitizeLine(JSON.stringify(b) ?? String(b)).slice(0, 120)}]`)];
  switch (b.type) {
    case 'text': {
      const raw = (b as { text?: unknown }).text;
      const text = sanitize(typeof raw === 'string' ? raw : (JSON.stringify(raw) ?? ''));
      try {
        const parsed: unknown = JSON.parse(text);
        if (parsed && typeof parsed === 'object') return JSON.stringify(parsed, null, 2).split('\n');
      } catch {
        /* plain text */
      }
      return text.split('\n');
    }
    case 'image':
    case 'audio': {
      const data = String((b as { data?: unknown }).data ?? '');
      return [c.dim(`[${b.type} ${sanitizeLine(String((b as { mimeType?: unknown }).mimeType ?? 'unknown type'))}, ${base64Bytes(data)} bytes]`)];
    }
    case 'resource_link': {
      const l = b as { uri?: unknown; name?: unknown; mimeType?: unknown; description?: unknown };
      return [
        `${c.dim('[link]')} ${sanitizeLine(String(l.uri ?? ''))}${l.name ? ` ${c.dim(sanitizeLine(String(l.name)))}` : ''}${l.mimeType ? c.dim(` (${sanitizeLine(String(l.mimeType))})`) : ''}`,
      ];
    }
    case 'resource': {
      const r = ((b as { resource?: JsonObject }).resource ?? {}) as { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown };
      const head = `${c.dim('[resource]')} ${sanitizeLine(String(r.uri ?? ''))}${r.mimeType ? c.dim(` (${sanitizeLine(String(r.mimeType))})`) : ''}`;
      if (typeof r.text === 'string')
        return [
          head,
          ...sanitize(r.text)
            .split('\n')
            .map((l) => `  ${l}`),
        ];
      if (typeof r.blob === 'string') return [`${head} ${c.dim(`${base64Bytes(r.blob)} bytes`)}`];
      return [head];
    }
    default:
      return [c.dim(`[${sanitizeLine(String(b.type))} block]`), ...sanitize(JSON.stringify(b, null, 2)).split('\n')];
  }
}

/** The `--json` form of the verdict: `valid` (true, false, or null when there is no verdict on validity) for compatibility, the `verdict`, and a message. */
export function verdictJson(
  v: OutputSchemaVerdict,
  formatIssues: (e: ValidationIssue[]) => string,
): { valid: boolean | null; verdict: OutputSchemaVerdict['verdict']; message: string } {
  return { valid: v.verdict === 'pass' ? true : v.verdict === 'fail' ? false : null, verdict: v.verdict, message: verdictMessage(v, formatIssues) };
}

/** Why the verdict is what it is, in one phrase (the part after the verdict's mark). */
function verdictMessage(v: OutputSchemaVerdict, formatIssues: (e: ValidationIssue[]) => string): string {
  const skipped = (p: string[] | undefined) =>
    p?.length ? ` (not checked: pattern${p.length > 1 ? 's' : ''} ${p.map((x) => JSON.stringify(x)).join(', ')}, which could take exponential time)` : '';
  switch (v.verdict) {
    case 'pass':
      return `matches outputSchema${skipped(v.unenforcedPatterns)}`;
    case 'fail':
      return v.reason === 'missing'
        ? 'the tool has an outputSchema but the result has no structuredContent'
        : formatIssues(v.errors) + skipped(v.unenforcedPatterns);
    case 'not-checked':
      return 'the result has isError: true';
    case 'cannot-check':
      return sanitizeLine(v.reason);
  }
}

/** The verdict as one line for people: ✓ pass, ✗ fail, – not checked, ? cannot check. */
export function verdictLine(v: OutputSchemaVerdict, out: Out, formatIssues: (e: ValidationIssue[]) => string): string {
  const m = verdictMessage(v, formatIssues);
  switch (v.verdict) {
    case 'pass':
      return out.c.green(`✓ ${m}`);
    case 'fail':
      return out.c.red(`✗ structuredContent does not match outputSchema: ${m}`);
    case 'not-checked':
      return out.c.dim(`– outputSchema not checked: ${m}`);
    case 'cannot-check':
      return out.c.yellow(`? outputSchema cannot be checked: ${m}`);
  }
}

/** `progress 3/10 30% message` for stderr. */
function progressLine(p: ProgressEvent): string {
  const pct = p.total ? ` ${Math.round((p.progress / p.total) * 100)}%` : '';
  return `progress ${p.progress}${p.total !== undefined ? `/${p.total}` : ''}${pct}${p.message ? ` ${sanitizeLine(p.message)}` : ''}`;
}

/**
 * The tool named `toolName` in the server's tools/list (every page). Throws UsageError with a
 * did-you-mean when there is none, or when the list left it out (and why).
 */
export async function findTool(s: Session, toolName: string): Promise<Tool> {
  const { out, client } = s;
  const stopList = out.wait(LIST_KINDS.tools.method);
  const list = await client.listTools({ signal: s.signal }).finally(stopList);
  const tool = list.tools.find((t) => t.name === toolName);
  if (!tool) {
    const dropped = list.dropped.find((d) => d.name === toolName);
    if (dropped) throw new UsageError(`tool ${toolName} was left out of the list: ${sanitizeLine(dropped.reason)}`);
    const names = list.tools.map((t) => sanitizeLine(t.name));
    const sub = names.filter((n) => n.toLowerCase().includes(toolName.toLowerCase()) || toolName.toLowerCase().includes(n.toLowerCase()));
    const near = [...new Set([...closest(toolName, names), ...sub])];
    throw new UsageError(
      `the server has no tool named ${JSON.stringify(toolName)}${near.length ? `; did you mean ${near.slice(0, 3).join(', ')}?` : names.length ? `; it has: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}` : ''}`,
    );
  }
  return tool;
}

/**
 * Validates `args` against the tool's inputSchema (warnings for what cannot be checked).
 * Throws UsageError listing the issues (and the undeclared keys) when they do not match.
 */
export function checkArguments(out: Out, tool: Tool, args: JsonObject, validateValue: typeof import('../../schema/validate.js').validateValue): void {
  const toolName = tool.name;
  const v = validateValue(tool.inputSchema, args);
  for (const p of v.unenforcedPatterns ?? [])
    out.warn(`pattern ${JSON.stringify(p)} of ${toolName}'s inputSchema was not checked: it could take exponential time on some strings`);
  if (v.schemaError) out.warn(`the inputSchema of ${toolName} cannot be compiled (${v.schemaError}); sending without validation`);
  else if (!v.valid) {
    // One line for people (a script matches it); every issue under --json as `details`.
    const hints = undeclaredKeyHints(tool.inputSchema, args);
    const e = new UsageError(
      `invalid arguments for ${toolName}: ${[...v.errors.map((i) => i.message), ...hints].join('; ')} (use --no-validate to send them anyway)`,
    );
    e.details = v.errors;
    throw e;
  }
}

/**
 * `args` with each key of `fromEnv` (a collection argument whose whole value was one
 * `${env:…}`, so text) typed by the tool's schema as key=value is typed; a value that does
 * not type stays text, for validation to say what is wrong.
 */
export function typedFromEnv(tool: Tool, args: JsonObject, fromEnv: readonly string[]): JsonObject {
  if (!fromEnv.length) return args;
  const out = { ...args };
  for (const k of fromEnv)
    if (typeof out[k] === 'string') {
      try {
        Object.assign(
          out,
          coerceArgs(tool.inputSchema, [`${k}=${out[k]}`], () => ''),
        );
      } catch {
        /* left as text */
      }
    }
  return out;
}

/**
 * The arguments of a tools/call as `call` and `load` send them: built from key=value pairs or
 * `--args` (`{ pairs }`), or given whole (`{ args }`, a collection's call, its `fromEnv` keys
 * typed by the schema as key=value is); checked against the
 * tool's inputSchema unless `--no-validate` (UsageError listing the issues); and each key the
 * schema does not declare warned about (an `input.undeclared-argument` finding, with its
 * did-you-mean) or, under `--strict-args`, refused (UsageError, nothing sent).
 * spec: server/tools#calling-tools
 */
export async function prepareArguments(
  s: Pick<Session, 'out' | 'findings'>,
  tool: Tool,
  given: { pairs: string[] } | { args: JsonObject; fromEnv?: readonly string[] },
  flags: CallFlags,
  validateValue: typeof import('../../schema/validate.js').validateValue,
): Promise<JsonObject> {
  const args = 'args' in given ? typedFromEnv(tool, given.args, given.fromEnv ?? []) : buildArguments(tool, given.pairs, flags);
  if (flags.validate !== false) checkArguments(s.out, tool, args, validateValue);
  // A key the schema does not name is sent silently otherwise (the SDKs publish no
  // additionalProperties: false, so the server ignores it): warn, or refuse with --strict-args.
  await reportUndeclared(s, flags, { kind: 'tool', name: tool.name }, undeclaredArguments(tool.inputSchema, args));
  return args;
}

/**
 * Calls a tool: finds it in the list, builds and validates the arguments (UsageError when
 * they do not fit, unless --no-validate), calls, and returns the outcome with the one
 * outputSchema verdict (src/check/output-schema.ts) and its findings. Exit: 0, or 1 for
 * `isError: true` (and, for now, a call left at `input_required`). `resumed`: the arguments as
 * an object instead of `pairs` (a collection's call, checked as typed ones are), with `resume`
 * the saved round `--resume` continues (then sent as saved, unchecked).
 * spec: server/tools#calling-tools, server/tools#output-schema
 */
export async function callTool(
  s: Session,
  toolName: string,
  pairs: string[],
  flags: CallFlags,
  resumed?: { args: JsonObject; resume?: ResumeRound },
): Promise<CommandResult> {
  const [{ formatIssues, validateValue }, { outputSchemaVerdict, outputSchemaFindings }] = await Promise.all([
    import('../../schema/validate.js'),
    import('../../check/output-schema.js'),
  ]);
  const { out, client } = s;
  const tool = await findTool(s, toolName);
  // A resumed round sends what was saved, unchecked; a replayed call's saved arguments are checked as typed ones.
  const args = resumed?.resume ? resumed.args : await prepareArguments(s, tool, resumed ? { args: resumed.args } : { pairs }, flags, validateValue);
  const support = client.taskSupport?.();
  const taskSupport = toolTaskSupport(tool);
  if (flags.task) {
    if (!support) throw new UsageError('--task: the server offers no tasks (no `tasks` capability, no io.modelcontextprotocol/tasks extension)');
    if (support.flavor === 'core' && !support.toolsCall)
      throw new UsageError('--task: the server does not accept task-augmented tools/call (no `tasks.requests.tools.call` capability)');
    if (support.flavor === 'core' && taskSupport === 'forbidden' && flags.validate !== false)
      throw new UsageError(
        `--task: ${toolName} does not run as a task (its execution.taskSupport is absent or "forbidden"); --no-validate sends it as a task anyway`,
      );
  }
  // A tool that requires a task runs as one by itself (a plain call would be refused).
  const asTask = !resumed?.resume && (!!flags.task || (taskSupport === 'required' && support?.flavor === 'core'));
  if (flags.wait === false && !asTask && support?.flavor !== 'extension')
    throw new UsageError('--no-wait applies to a call that runs as a task: give --task (or call a tool whose execution.taskSupport is "required")');
  const started = Date.now();
  const stop = out.wait(`tools/call ${toolName}`);
  const outcome = await client
    .callTool(toolName, args, {
      signal: s.signal,
      resume: resumed?.resume,
      task: asTask,
      onProgress: (p) => out.status(progressLine(p)),
      onLog: (l) =>
        out.info(
          `log ${sanitizeLine(l.level)}${l.logger ? ` [${sanitizeLine(l.logger)}]` : ''}: ${sanitizeLine(typeof l.data === 'string' ? l.data : JSON.stringify(l.data))}`,
        ),
    })
    .finally(stop);
  let followed: TaskOutcome | undefined;
  if (outcome.kind === 'task') {
    if (flags.wait === false) return taskCreated(toolName, args, outcome.task, Date.now() - started, s.target.kind === 'stdio' ? out : undefined);
    followed = await followTask(s, toolName, args, outcome.task);
    if (!followed.result) return taskEnded(toolName, args, followed, Date.now() - started);
  }
  const elapsed = Date.now() - started;
  if (flags.output) writeResult(flags.output, followed?.result ?? outcome.result, out);
  if (outcome.kind === 'input_required') {
    const r = outcome.result;
    return {
      exitCode: exitCodeOf('input-required'),
      json: { tool: toolName, arguments: args, resultType: 'input_required', result: r, elapsedMs: elapsed },
      text: (o) => {
        const keys = Object.keys(r.inputRequests ?? {});
        o.line(
          o.c.yellow(
            `${toolName} needs more input (resultType "input_required"): ${keys.length ? keys.map((k) => `${sanitizeLine(k)} (${sanitizeLine(String(r.inputRequests![k].method))})`).join(', ') : 'no input requests'}${r.requestState ? ', with requestState' : ''}.`,
          ),
        );
        o.line(o.c.dim('the call did not complete: nothing answered the input requests.'));
      },
    };
  }
  const result = followed?.result ?? (outcome.result as CallToolResult);
  const verdict = outputSchemaVerdict(tool, result);
  const fmt = await import('../content-format.js');
  const saved = flags.saveMedia !== undefined ? fmt.saveMedia(flags.saveMedia, toolName, result.content ?? []) : [];
  for (const m of saved) out.info(`saved content[${m.index}] (${m.mimeType}, ${m.bytes} bytes) to ${m.path}`);
  const r: CommandResult = {
    exitCode: exitCodeOf(result.isError ? 'tool-error' : 'ok'),
    findings: outputSchemaFindings(toolName, verdict),
    json: {
      tool: toolName,
      arguments: args,
      resultType: 'complete',
      isError: !!result.isError,
      result,
      outputSchemaCheck: verdict ? verdictJson(verdict, formatIssues) : null,
      elapsedMs: elapsed,
      ...(flags.saveMedia !== undefined ? { savedMedia: saved } : {}),
      ...(followed ? { task: followed.task, polls: followed.polls } : {}),
    },
    text: (o) => {
      const sameAsStructured = (b: ContentBlock) => {
        if (!b || typeof b !== 'object' || b.type !== 'text' || result.structuredContent === undefined) return false;
        try {
          return JSON.stringify(parseBounded(String((b as { text?: unknown }).text))) === JSON.stringify(result.structuredContent);
        } catch {
          return false;
        }
      };
      for (const b of result.content ?? []) {
        if (sameAsStructured(b)) {
          o.line(o.c.dim('[text] the same JSON as structuredContent'));
          continue;
        }
        for (const l of renderBlock(b, o)) o.line(result.isError ? o.c.red(l) : l);
      }
      if (result.structuredContent !== undefined) {
        o.line(o.c.dim('structuredContent:'));
        for (const l of sanitize(JSON.stringify(result.structuredContent, null, 2)).split('\n')) o.line(`  ${l}`);
      }
      if (verdict) o.line(verdictLine(verdict, o, formatIssues));
      if (followed)
        o.info(`task ${sanitizeLine(followed.task.taskId)} ${followed.task.status} after ${followed.polls} tasks/get poll${followed.polls === 1 ? '' : 's'}`);
      o.info(`${result.isError ? 'tool error' : 'ok'} in ${formatDuration(elapsed)}`);
    },
  };
  // --format raw | markdown replace the text; --json keeps its document.
  if (flags.format === 'raw' || flags.format === 'markdown') {
    const format = flags.format;
    r.text = (o) => {
      const plain = { ...o, c: createPalette(false) };
      if (format === 'raw') {
        const raw = fmt.rawText(result.content ?? [], !!process.stdout.isTTY);
        if (raw.text) writeOut(raw.text);
        for (const n of raw.notes) o.info(n);
        if (verdict) o.info(verdictLine(verdict, plain, formatIssues));
      } else {
        const verdictText = verdict && verdictLine(verdict, plain, formatIssues);
        for (const l of fmt.markdownResult({ tool: toolName, result, saved, verdict: verdictText, elapsed: formatDuration(elapsed) })) o.line(l);
      }
    };
  }
  return r;
}

/**
 * `--no-wait`: the task the server created; its id on stdout (the whole task under --json).
 * Over stdio a warning says the task stops with the server, which this command stops on exit.
 */
function taskCreated(toolName: string, args: JsonObject, task: Task, elapsed: number, stdio: Out | undefined): CommandResult {
  stdio?.warn(
    'over stdio the task stops with the server, which mcp-inspect stops now: nothing can follow it later (use an HTTP server, or call without --no-wait)',
  );
  return {
    exitCode: exitCodeOf('ok'),
    json: { tool: toolName, arguments: args, resultType: 'task', task, elapsedMs: elapsed },
    text: (o) => {
      o.line(sanitizeLine(task.taskId));
      if (stdio) return;
      o.info(
        `${toolName} runs as task ${sanitizeLine(task.taskId)} (${task.status}${task.statusMessage ? `: ${sanitizeLine(task.statusMessage)}` : ''}); follow it with: mcp-inspect tasks get|result TARGET ${sanitizeLine(task.taskId)}`,
      );
    },
  };
}

/**
 * Follows the task to its end with its status on stderr (each change of status or message,
 * with the poll count). Ctrl-C sends `tasks/cancel` (the client's wait does). Throws as waitForTask.
 */
async function followTask(s: Session, toolName: string, args: JsonObject, task: Task): Promise<TaskOutcome> {
  const { out, client } = s;
  if (!client.waitForTask) throw new UsageError('this client cannot follow tasks');
  let last = '';
  const stop = out.wait(`task ${sanitizeLine(task.taskId)} (${toolName})`, { persistent: true });
  try {
    return await client.waitForTask(task, {
      signal: s.signal,
      call: { name: toolName, arguments: args },
      onProgress: (p) => out.status(progressLine(p)),
      onStatus: (t, polls) => {
        const now = `${t.status}${t.statusMessage ? `: ${sanitizeLine(t.statusMessage)}` : ''}`;
        if (now === last) return;
        last = now;
        out.status(`task ${sanitizeLine(t.taskId)} ${now} (${polls} poll${polls === 1 ? '' : 's'})`);
      },
    });
  } finally {
    stop();
  }
}

/**
 * A task that ended without a result: `failed` with a JSON-RPC error (exit 2, as a failed
 * plain call), or `cancelled` / `failed` with nothing (exit 2: no result came).
 */
function taskEnded(toolName: string, args: JsonObject, t: TaskOutcome, elapsed: number): CommandResult {
  const msg = t.task.statusMessage ? `: ${sanitizeLine(t.task.statusMessage)}` : '';
  return {
    exitCode: EXIT.rpc,
    json: { tool: toolName, arguments: args, resultType: 'task', task: t.task, polls: t.polls, error: t.error ?? null, elapsedMs: elapsed },
    text: (o) => {
      o.line(o.c.red(`task ${sanitizeLine(t.task.taskId)} of ${sanitizeLine(toolName)} ended ${t.task.status}${msg}`));
      if (t.error) o.line(o.c.red(`error ${t.error.code}: ${sanitizeLine(t.error.message)}`));
      if (t.error?.data !== undefined) for (const l of sanitize(JSON.stringify(t.error.data, null, 2)).split('\n')) o.line(`  ${l}`);
      o.info(`no result after ${formatDuration(elapsed)} and ${t.polls} tasks/get poll${t.polls === 1 ? '' : 's'}`);
    },
  };
}
