import { useCallback, useEffect, useRef } from 'react';
import { useInput, type Key } from 'ink';

/** What a key handler may return: `'split'` asks for a multi-character input to be re-sent one character at a time. */
export type KeyResult = void | 'split';
export type KeyHandler = (input: string, key: Key) => KeyResult;

interface KeyEvent {
  input: string;
  key: Key;
}

/** A Key with nothing pressed (shift set for an upper-case letter, as Ink does). */
export function plainKey(input = ''): Key {
  return {
    upArrow: false,
    downArrow: false,
    leftArrow: false,
    rightArrow: false,
    pageDown: false,
    pageUp: false,
    home: false,
    end: false,
    return: false,
    escape: false,
    ctrl: false,
    shift: input.length === 1 && /[A-Z]/.test(input),
    tab: false,
    backspace: false,
    delete: false,
    meta: false,
    super: false,
    hyper: false,
    capsLock: false,
    numLock: false,
  };
}

function controlEvent(ch: string): KeyEvent {
  const k = plainKey();
  const code = ch.charCodeAt(0);
  if (ch === '\r' || ch === '\n') return { input: '', key: { ...k, return: true } };
  if (ch === '\t') return { input: '', key: { ...k, tab: true } };
  if (ch === '\u007f') return { input: '', key: { ...k, delete: true } };
  if (ch === '\b') return { input: '', key: { ...k, backspace: true } };
  if (ch === '\u001b') return { input: '', key: { ...k, escape: true, meta: true } };
  if (code >= 1 && code <= 26) return { input: String.fromCharCode(code + 96), key: { ...k, ctrl: true } };
  return { input: '', key: k };
}

/**
 * Splits one stdin chunk that Ink delivered as a single input (fast typing, `tmux send-keys`,
 * a paste ending in Enter) into text runs and single control keys, in order. Escape
 * sequences (arrows…) are already separated by Ink.
 */
export function splitChunk(input: string, key: Key): KeyEvent[] {
  // eslint-disable-next-line no-control-regex
  if ([...input].length <= 1 || !/[\u0000-\u001f\u007f]/.test(input)) return [{ input, key }];
  const out: KeyEvent[] = [];
  let text = '';
  for (const ch of input) {
    const c = ch.charCodeAt(0);
    if (c < 0x20 || c === 0x7f) {
      if (text) out.push({ input: text, key: plainKey(text) });
      text = '';
      out.push(controlEvent(ch));
    } else text += ch;
  }
  if (text) out.push({ input: text, key: plainKey(text) });
  return out;
}

/**
 * `useInput` with a handler that always sees the latest render's state, and with inputs
 * handled strictly one at a time: when a chunk holds several keys, the first is handled now
 * and the rest after React has re-rendered (so each key sees the state the previous one
 * produced). A handler returning `'split'` gets a multi-character text input again as single
 * characters (where keys are commands, not text).
 */
export function useKeys(handler: KeyHandler, active = true): void {
  const ref = useRef(handler);
  ref.current = handler;
  const queue = useRef<KeyEvent[]>([]);
  const timer = useRef<ReturnType<typeof setImmediate> | undefined>(undefined);
  const mounted = useRef(true);

  const handleOne = useCallback((ev: KeyEvent) => {
    const r = ref.current(ev.input, ev.key);
    const chars = [...ev.input];
    if (r === 'split' && chars.length > 1) queue.current.unshift(...chars.map((c) => ({ input: c, key: plainKey(c) })));
  }, []);

  const drain = useCallback(() => {
    timer.current = undefined;
    if (!mounted.current) return;
    const ev = queue.current.shift();
    if (ev) handleOne(ev);
    if (queue.current.length && mounted.current) timer.current = setImmediate(drain);
  }, [handleOne]);

  const stable = useCallback(
    (input: string, key: Key) => {
      queue.current.push(...splitChunk(input, key));
      if (timer.current === undefined) drain();
    },
    [drain],
  );

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      if (timer.current !== undefined) clearImmediate(timer.current);
    };
  }, []);

  useInput(stable, { isActive: active });
}
