/**
 * Adding a call to a collection file (`a` on a result or on a call of the History pane): the
 * status line asks for the file (default `./mcp-inspect.collection.json`, the last one used
 * after that), Enter adds the call with its result as the expectation (the services'
 * addToCollection: the collection module's append), Esc does not. Secret arguments are never
 * written: they become `${env:NAME}` placeholders, and the status line says which to set.
 */
import { useEffect, useState } from 'react';
import type { Key } from 'ink';
import type { CallToolResult, JsonObject } from '../../protocol/types.js';
import { MASKED, MAX_SUMMARY_TEXT, maskSecrets, type HistoryEntry } from '../../state/call-history.js';
import { isObject } from '../../util/json.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { useServices } from '../context/services.js';
import type { PaneContext } from '../panes/types.js';
import { matchKey, type KeyContext } from '../keys.js';
import { editText, textAtEnd, type TextState } from '../forms/textEdit.js';
import { describeError } from '../model/errors.js';

/** The file offered first. */
export const DEFAULT_COLLECTION_FILE = './mcp-inspect.collection.json';
const CONTEXTS: readonly KeyContext[] = ['collect', 'text'];
const FLASH_KEY = 'collect';
/** The file last added to, for the session: offered next time. */
let lastFile = DEFAULT_COLLECTION_FILE;

/** A call to add: what was sent (secrets still in, or already {@link MASKED}), the inputSchema when known, the result. */
export interface CollectedCall {
  tool: string;
  arguments: JsonObject;
  inputSchema?: unknown;
  /** The result, whose `isError`, `structuredContent` and text become the expectation (absent for a call that failed: not added). */
  result?: CallToolResult;
  /** The call as the history recorded it: its summary is the expectation when the full result is no longer in memory. */
  recorded?: HistoryEntry;
}

/** The placeholder a secret argument is written as: `${env:TOKEN}` for `token`, `${env:API_KEY}` for `apiKey`. Pure. */
export function envPlaceholder(pointer: string): string {
  const name = (
    pointer
      .split('/')
      .filter((p) => !/^\d+$/.test(p))
      .pop() ?? 'SECRET'
  )
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
  return `\${env:${name || 'SECRET'}}`;
}

/** `args` with every secret (by the history's rule, and values already masked) replaced by its `${env:NAME}` placeholder; and those names. Pure. */
export function collectableArguments(args: JsonObject, inputSchema: unknown): { arguments: JsonObject; env: string[] } {
  const masked = maskSecrets(args, inputSchema).arguments;
  const env: string[] = [];
  const walk = (v: unknown, ptr: string): unknown => {
    if (v === MASKED) {
      const p = envPlaceholder(ptr);
      if (!env.includes(p)) env.push(p);
      return p;
    }
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${ptr}/${i}`));
    if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, `${ptr}/${k}`)]));
    return v;
  };
  return { arguments: walk(masked, '') as JsonObject, env };
}

/**
 * A result standing for a recorded call whose full result is gone (an earlier session): its
 * `isError` and first line of text (a cut line without its `…`), so the expectation is those
 * two; undefined for a call that ended with an error or was cancelled. Pure.
 */
export function resultOfSummary(e: HistoryEntry): CallToolResult | undefined {
  if (e.outcome !== 'ok' && e.outcome !== 'isError') return undefined;
  let text = e.summary.text;
  if (text !== undefined && [...text].length === MAX_SUMMARY_TEXT && text.endsWith('…')) text = text.slice(0, -1);
  return { content: text !== undefined ? [{ type: 'text', text }] : [], isError: e.outcome === 'isError' };
}

/** The collect prompt of a pane: its key contexts while asking, its key handler, and how to start it. */
export interface UseCollectPrompt {
  /** The contexts while the status line asks (`collect`, `text`), else none. */
  contexts: readonly KeyContext[];
  /** Starts asking for the file `call` is added to. */
  open(call: CollectedCall): void;
  /** Handles a key while asking; false when not asking. */
  onKey(input: string, key: Key): boolean;
}

/** Asks on the status line for the collection file and adds the call there (see the module's comment). */
export function useCollectPrompt({ flash, clearFlash }: Pick<PaneContext, 'flash' | 'clearFlash'>): UseCollectPrompt {
  const services = useServices();
  const [ask, setAsk] = useState<{ text: TextState; call: CollectedCall } | undefined>(undefined);
  useEffect(() => {
    if (!ask) return;
    const cps = [...ask.text.text];
    const shown = `${cps.slice(0, ask.text.cursor).join('')}▏${cps.slice(ask.text.cursor).join('')}`;
    flash(`Add ${sanitizeLine(ask.call.tool)} to the collection file: ${shown}`, 'accent', { key: FLASH_KEY, prompt: true });
  }, [ask, flash]);

  const save = (file: string, call: CollectedCall) => {
    const add = services.addToCollection;
    if (!add) return flash('Adding to a collection is not available here', 'warn');
    const result = call.result ?? (call.recorded ? resultOfSummary(call.recorded) : undefined);
    if (!result) return flash('Not added: the call ended without a result to expect', 'warn');
    const { arguments: args, env } = collectableArguments(call.arguments, call.inputSchema);
    add(file, { tool: call.tool, arguments: args, result }).then(
      (r) => {
        lastFile = file;
        const secrets = env.length ? ` (secret arguments written as ${env.join(', ')}: set them before running it)` : '';
        flash(`Added "${sanitizeLine(r.name)}" to ${sanitizeLine(r.path)}${secrets}`, 'ok');
      },
      (e: unknown) => flash(`Not added to ${sanitizeLine(file)}: ${describeError(e)}`, 'error'),
    );
  };

  return {
    contexts: ask ? CONTEXTS : [],
    open(call) {
      setAsk({ text: textAtEnd(lastFile), call });
    },
    onKey(input, key) {
      if (!ask) return false;
      const m = matchKey(input, key, CONTEXTS);
      if (m?.command === 'collect.cancel') {
        setAsk(undefined);
        clearFlash(FLASH_KEY);
        flash('Not added to a collection', 'plain', { ttlMs: 3000 });
        return true;
      }
      if (m?.command === 'collect.save') {
        const file = ask.text.text.trim();
        if (!file) return true;
        setAsk(undefined);
        clearFlash(FLASH_KEY);
        save(file, ask.call);
        return true;
      }
      const next = editText(ask.text, input, key);
      if (next) setAsk({ ...ask, text: next });
      return true;
    },
  };
}
