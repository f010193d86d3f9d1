/**
 * The scripted commands' InputHandler: answers a server's input rounds from the flags
 * (`--elicit`, `--elicit-file`, `--sampling-reply`, `--root`, the config entry's `roots`),
 * asks on the terminal for what is missing when stdin and stderr are both TTYs, and otherwise
 * stops with an InputRequiredError carrying the pending-input document (exit 5; the document
 * is printed by the output layer and read back by `--resume`).
 *
 * Legacy servers' elicitations carry no key of their own (their JSON-RPC id is not known in
 * advance): for `--elicit` they are keyed by their number within the run, `1` for the first
 * elicitation, `2` for the next; sampling and roots are answered by kind (`--sampling-reply`,
 * `--root`). A legacy request cannot be resumed (the server waited on a connection that is
 * gone): its document says so and `--resume` refuses it.
 *
 * A URL is shown, never opened: the user opens it and confirms.
 * spec: basic/patterns/mrtr, client/elicitation (form, url), client/roots, client/sampling
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import type { InputHandler, InputRound } from '../client/types.js';
import { InputRequiredError, TransportError, UsageError } from '../protocol/errors.js';
import {
  elicitAccept,
  elicitRefuse,
  rootsResult,
  samplingReply,
  type InputRequest,
  type InputResponse,
  type InputResponses,
  type MrtrMethod,
  type Root,
} from '../protocol/mrtr.js';
import { rootFromArg } from '../protocol/roots.js';
import type { JsonObject } from '../protocol/types.js';
import { sanitize, sanitizeLine } from '../util/sanitize.js';
import { closest } from '../util/distance.js';
// Resolving a round and the elicitation forms validate with Ajv: loaded when a round arrives
// (./elicit-args.ts, src/schema/elicitation.ts), not at the start of every command.
import { collectAnswers, parseElicitFile, pendingSummary, type Answers } from './elicit-answers.js';
import type { PendingDocument } from './elicit-args.js';
import { STDIO_RESUME_NOTE, type InputFlags } from './input-options.js';

/** Asks one question on the terminal; resolves with the line typed (without the newline). */
export type Ask = (question: string, signal?: AbortSignal) => Promise<string>;

/** Asks on stderr, reading stdin (one readline per question: stdin stays free between rounds). */
export const terminalAsk: Ask = async (question, signal) => {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    return await rl.question(question, { signal });
  } catch (e) {
    if (signal?.aborted || (e as Error).name === 'AbortError') throw new TransportError('MCPI_CANCELLED', 'cancelled while waiting for an answer');
    throw e;
  } finally {
    rl.close();
  }
};

/** Whether the user can be asked: stdin and stderr both terminals. */
export function isInteractive(): boolean {
  return !!process.stdin.isTTY && !!process.stderr.isTTY;
}

/** Answers from the flags (throws UsageError for a bad `--elicit`, an unreadable `--elicit-file`, a bad `--root`). `configRoots`: the config entry's. */
export function answersFromFlags(flags: InputFlags, configRoots?: Root[], cwd = process.cwd()): Answers {
  let file: ReturnType<typeof parseElicitFile> | undefined;
  if (flags.elicitFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(flags.elicitFile, 'utf8');
    } catch (e) {
      throw new UsageError(`--elicit-file ${flags.elicitFile}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
    }
    file = parseElicitFile(text, flags.elicitFile);
  }
  let roots: Root[] | undefined;
  if (flags.root?.length) {
    roots = flags.root.map((r) => {
      try {
        return rootFromArg(r, cwd);
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
    });
  } else if (configRoots) roots = configRoots;
  return collectAnswers({ elicit: flags.elicit, elicitFile: file, samplingReply: flags.samplingReply, roots });
}

/** Where the handler writes what it shows the user (stderr lines). */
export interface InputSink {
  info(s: string): void;
}

export interface CliInputOptions {
  answers: Answers;
  /** Ask on the terminal for what is missing. */
  interactive: boolean;
  sink: InputSink;
  ask?: Ask;
  /** `--json`: the pending document goes to stdout (the hint says so). */
  json?: boolean;
  /** The server is spawned (stdio): a pending round with a requestState gets the note that --resume may not continue it (src/cli/resume.ts). */
  stdio?: boolean;
  /** Answers already given for the round being resumed (`--resume`), used for that round only. */
  resumed?: { round: number; responses: InputResponses };
}

/** The CLI's InputHandler (see the module comment). */
export class CliInputHandler implements InputHandler {
  /** Keys of the scripted answers some round used (to warn at the end about the others). */
  readonly usedKeys = new Set<string>();
  /** Keys of every request some round asked (as `--elicit` names them), for the did-you-mean of an unused answer. */
  private readonly askedKeys = new Set<string>();
  /** True once {@link takeUnusedAnswers} was called: the end of the command is told once. */
  private toldUnused = false;
  private legacyElicitations = 0;
  private readonly ask: Ask;

  constructor(private readonly o: CliInputOptions) {
    this.ask = o.ask ?? terminalAsk;
  }

  /** Answers a collection call gave (`run`), over the flags' for the current call only. */
  private callAnswers: Answers['elicit'] | undefined;
  /** The elicitation responses given in the current call, by the key `--elicit` uses (for `call --save`). */
  private readonly given = new Map<string, InputResponse>();

  /**
   * Starts a call of a sequence (`run`): `answers` (a collection call's) answer its input
   * requests before the flags' do, the legacy elicitations are numbered from 1 again, and the
   * responses given are recorded anew ({@link givenAnswers}).
   */
  beginCall(answers?: Answers['elicit']): void {
    this.callAnswers = answers;
    this.legacyElicitations = 0;
    this.given.clear();
  }

  /** The elicitation responses given since the start (or {@link beginCall}), from the flags, a collection or the terminal, by key. */
  givenAnswers(): ReadonlyMap<string, InputResponse> {
    return this.given;
  }

  /** Never asks on the terminal from now on (`load`: thousands of requests cannot each wait for a person). */
  stopAsking(): void {
    this.o.interactive = false;
  }

  /**
   * Every call of the run is the same call made again (`load`): a legacy server's
   * elicitation is then keyed `1` each time (as in one `call`), not by its number in the
   * run, so `--elicit 1=…` answers all of them.
   */
  repeatCalls(): void {
    this.repeating = true;
  }

  private repeating = false;

  /** Uses `responses` (from a `--resume` document) for round `round`, the next time it is answered. */
  resumeWith(round: number, responses: InputResponses): void {
    this.o.resumed = { round, responses };
  }

  async answer(round: InputRound, signal?: AbortSignal): Promise<InputResponses> {
    // Legacy elicitations are keyed by their number in the run; map back to the id afterwards.
    const back = new Map<string, string>();
    // Sampling and roots (answered by kind) get keys no ordinal can collide with.
    const requests = round.requests.map((r) => {
      if (round.era !== 'legacy') return r;
      const key =
        r.kind === 'elicitation-form' || r.kind === 'elicitation-url' ? (this.repeating ? '1' : String(++this.legacyElicitations)) : `${r.method}#${r.key}`;
      back.set(key, r.key);
      return { ...r, key };
    });
    let prior: InputResponses = {};
    if (this.o.resumed && this.o.resumed.round === round.round) {
      prior = this.o.resumed.responses;
      this.o.resumed = undefined;
    }
    for (const r of requests) if (r.kind !== 'roots') this.askedKeys.add(r.key);
    const { resolveRound, buildPendingDocument } = await import('./elicit-args.js');
    const answers = this.callAnswers ? { ...this.o.answers, elicit: new Map([...this.o.answers.elicit, ...this.callAnswers]) } : this.o.answers;
    const resolved = resolveRound(requests, answers, prior);
    for (const k of resolved.usedKeys) this.usedKeys.add(k);
    if (resolved.unsupported.length) {
      const r = resolved.unsupported[0] as Extract<InputRequest, { kind: 'unsupported' }>;
      throw new TransportError('MCPI_BAD_RESPONSE', `the server asked for input mcp-inspect cannot give (${sanitizeLine(r.key)}: ${sanitizeLine(r.reason)})`);
    }
    const responses = { ...resolved.responses };
    let missing = resolved.missing;
    if (round.era === 'legacy' && !this.o.interactive) {
      // A legacy server asks for the roots whenever it likes (server-everything right after
      // initialize, so the request can land while an unrelated call runs): roots are the
      // client's state, not a question, and none given means none. spec: 2025-11-25 client/roots
      for (const r of missing.filter((m) => m.kind === 'roots')) {
        responses[r.key] = rootsResult([]);
        this.o.sink.info(`The server asked for the roots (${sanitizeLine(r.method)}); none were given, so it was told none (--root PATH gives some).`);
      }
      missing = missing.filter((m) => m.kind !== 'roots');
    }
    if (missing.length && this.o.interactive) {
      for (const r of missing) responses[r.key] = await this.askFor(r, signal);
      missing = [];
    }
    if (missing.length) {
      const doc = this.pendingDocument(buildPendingDocument, round, requests, responses, missing);
      throw new InputRequiredError([this.missingMessage(round, missing), ...pendingLines(doc, !!this.o.json)].join('\n'), doc);
    }
    for (const r of requests) if ((r.kind === 'elicitation-form' || r.kind === 'elicitation-url') && responses[r.key]) this.given.set(r.key, responses[r.key]);
    const out: InputResponses = {};
    for (const [k, v] of Object.entries(responses)) out[back.get(k) ?? k] = v;
    return out;
  }

  /**
   * The `--elicit` / `--elicit-file` keys no round used, each with the asked keys close to it
   * (a typo: `--elicit confrim` when the server asked `confirm`). Empty after the first call:
   * the command tells it once, when it ends.
   */
  takeUnusedAnswers(): { key: string; near: string[] }[] {
    if (this.toldUnused) return [];
    this.toldUnused = true;
    const asked = [...this.askedKeys];
    return [...this.o.answers.elicit.keys()].filter((k) => !this.usedKeys.has(k)).map((key) => ({ key, near: closest(key, asked) }));
  }

  private missingMessage(round: InputRound, missing: readonly InputRequest[]): string {
    const what = missing.map((r) => `${r.key} (${r.method})`).join(', ');
    return `${round.method} needs input that was not given: ${sanitizeLine(what)}`;
  }

  private pendingDocument(
    buildPendingDocument: typeof import('./elicit-args.js').buildPendingDocument,
    round: InputRound,
    requests: InputRequest[],
    responses: InputResponses,
    missing: InputRequest[],
  ): PendingDocument {
    const raw: JsonObject = {};
    for (const r of requests) raw[r.key] = r.raw;
    const doc = buildPendingDocument({
      method: round.method as MrtrMethod,
      params: round.params,
      round: round.round,
      input: { requests, requestState: round.requestState, rawInputRequests: raw, problems: [] },
      responses,
      missing,
      lastRequestId: round.lastRequestId,
    });
    // A task's question (the tasks extension) is answered with tasks/update on the live task, not by a retry: not resumable either.
    if (round.era === 'legacy' || round.taskId !== undefined) doc.era = 'legacy';
    else if (this.o.stdio && doc.requestState !== undefined) doc.resumeNote = STDIO_RESUME_NOTE;
    return doc;
  }

  /** Asks for one request on the terminal. */
  private async askFor(r: InputRequest, signal?: AbortSignal): Promise<InputResponse> {
    const say = (s: string) => this.o.sink.info(s);
    switch (r.kind) {
      case 'elicitation-form': {
        say(`The server asks (${sanitizeLine(r.key)}): ${sanitize(r.message)}`);
        const action = await this.choose('accept, decline or cancel? [a/d/c] (a): ', signal);
        if (action !== 'accept') return elicitRefuse(action);
        const { coerceElicitationField, validateElicitationContent } = await import('../schema/elicitation.js');
        const schema = r.requestedSchema;
        const props = (schema.properties && typeof schema.properties === 'object' ? schema.properties : {}) as Record<string, JsonObject>;
        const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
        for (let attempt = 0; ; attempt++) {
          const content: Record<string, unknown> = {};
          for (const [name, s] of Object.entries(props)) {
            const label = sanitizeLine(typeof s.title === 'string' ? `${s.title} (${name})` : name);
            const hint = [
              typeof s.type === 'string' ? s.type : undefined,
              Array.isArray(s.enum) ? `one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}` : undefined,
              required.includes(name) ? 'required' : 'optional',
              'default' in s ? `default ${JSON.stringify(s.default)}` : undefined,
            ]
              .filter(Boolean)
              .join(', ');
            if (typeof s.description === 'string') say(`  ${sanitizeLine(s.description)}`);
            const text = await this.ask(`  ${label} [${sanitizeLine(hint)}]: `, signal);
            if (text === '') {
              if ('default' in s) content[name] = s.default;
              continue;
            }
            try {
              content[name] = coerceElicitationField(schema, name, text);
            } catch (e) {
              say(`  ${(e as Error).message}`);
              content[name] = text;
            }
          }
          const v = validateElicitationContent(schema, content);
          if (v.schemaError || v.valid) return elicitAccept(content);
          say(`  the answer does not fit: ${v.errors.map((e) => e.message).join('; ')}`);
          if (attempt >= 2) return elicitRefuse('cancel');
        }
      }
      case 'elicitation-url': {
        say(`The server asks you to open a URL (${sanitizeLine(r.key)}): ${sanitize(r.message)}`);
        say(`  ${sanitizeLine(r.url)}`);
        say('  mcp-inspect does not open it: open it yourself if you trust it, then confirm here.');
        const action = await this.choose('done? accept (opened and finished), decline or cancel [a/d/c] (a): ', signal);
        return action === 'accept' ? elicitAccept() : elicitRefuse(action);
      }
      case 'sampling': {
        const p = r.params;
        say(`The server asks for a model reply (${sanitizeLine(r.key)}); you are the model.`);
        if (typeof p.systemPrompt === 'string') say(`  system: ${sanitize(p.systemPrompt)}`);
        for (const m of p.messages) {
          const blocks = Array.isArray(m.content) ? m.content : [m.content];
          for (const b of blocks) say(`  ${sanitizeLine(String(m.role))}: ${sanitize(typeof b.text === 'string' ? b.text : JSON.stringify(b))}`);
        }
        if (p.modelPreferences) say(`  model preferences: ${sanitizeLine(JSON.stringify(p.modelPreferences))}`);
        say(`  maxTokens: ${p.maxTokens}`);
        return samplingReply(await this.ask('  reply: ', signal));
      }
      case 'roots': {
        say('The server asks for the roots (directories it may work in).');
        const text = await this.ask('  roots (paths or file:// URIs, comma-separated; empty for none): ', signal);
        const roots = text
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .map((s) => rootFromArg(s, process.cwd()));
        return rootsResult(roots);
      }
      case 'unsupported':
        throw new TransportError('MCPI_BAD_RESPONSE', `the server asked for input mcp-inspect cannot give: ${sanitizeLine(r.reason)}`);
    }
  }

  private async choose(question: string, signal?: AbortSignal): Promise<'accept' | 'decline' | 'cancel'> {
    for (;;) {
      const a = (await this.ask(question, signal)).trim().toLowerCase();
      if (a === '' || a === 'a' || a === 'accept' || a === 'y' || a === 'yes') return 'accept';
      if (a === 'd' || a === 'decline' || a === 'n' || a === 'no') return 'decline';
      if (a === 'c' || a === 'cancel') return 'cancel';
    }
  }
}

/** The lines the CLI shows on stderr for an InputRequiredError's pending document (and the hint to go on). */
export function pendingLines(doc: PendingDocument, json: boolean): string[] {
  const lines = pendingSummary(doc).map((l) => `  ${l}`);
  if (doc.era === 'legacy')
    lines.push('  (the server asked on the live connection or for a running task: run again with the answers; --resume cannot continue it)');
  else
    lines.push(
      json
        ? '  (the pending document is on stdout: save it and continue with --resume FILE and the answers)'
        : '  (run again with the answers, or with --json to get a document to --resume from)',
    );
  if (doc.resumeNote) lines.push(`  (${doc.resumeNote})`);
  return lines;
}
