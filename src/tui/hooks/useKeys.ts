import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useInput, type Key } from 'ink';
import { append } from '../../util/array.js';

/** What a key handler may return: `'split'` asks for a multi-character input to be re-sent one character at a time. */
export type KeyResult = void | 'split';
export type KeyHandler = (input: string, key: Key) => KeyResult;

/** One keypress as Ink reports it. */
export interface KeyEvent {
  input: string;
  key: Key;
}

/** What {@link useKeys} returns. */
export interface UseKeys {
  /** Queues keypresses as if typed now, after any still waiting (keys kept while connecting). Stable. */
  inject(events: readonly KeyEvent[]): void;
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
  // Ink reads ESC ESC (Esc pressed twice within one read) as one escape whose input is ESC.
  if (key.escape && input === '\u001b') return [controlEvent('\u001b'), controlEvent('\u001b')];
  // A paste of several lines (a line break followed by more text in the same read) is text,
  // not keys, so it can never submit a form halfway and run the rest as commands. (Typing is
  // never that fast; `send-keys x Enter` ends in Enter.) Its line breaks arrive as `\n` (the
  // terminal sends CR): a multi-line field keeps them, a one-line field makes them spaces
  // (src/tui/forms/textEdit.ts); line breaks at the end are dropped.
  if (isMultiLinePaste(input)) return [{ input: input.replace(/\r\n?/g, '\n').replace(/\n+$/, ''), key: plainKey() }];
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

/** True for a chunk holding a line break with printable text after it. */
export function isMultiLinePaste(input: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /[\r\n][^\u0000-\u001f\u007f]/.test(input) && /[^\u0000-\u001f\u007f][\r\n]/.test(input);
}

/**
 * `useInput` with keys handled strictly one at a time, each seeing the state the previous
 * one produced.
 *
 * Ink's React renders asynchronously (updates from input are scheduled, not flushed), and
 * it delivers a chunk of stdin as one input when it holds no escape sequence: fast typing,
 * `tmux send-keys`, or a paste ending in Enter arrive as `"/ech\r"`. So keys are queued:
 * chunks are split into text runs and single control keys, a handler returning `'split'`
 * (keys are commands there, not text) gets a text run again as single characters, and the
 * next key is handled only after the component has re-rendered and committed.
 *
 * Each key also bumps a counter of this component, in the same batch as whatever the handler
 * changed, so every key is followed by exactly one commit holding its effects, also when it
 * changed nothing. Waiting for that commit, rather than for a fixed time in which a render
 * should have started, keeps keys in order on a busy machine, where React's scheduled work
 * can lag behind any timer.
 */
export function useKeys(handler: KeyHandler, active = true): UseKeys {
  const ref = useRef(handler);
  ref.current = handler;
  const [committed, setCommitted] = useState(0);
  const st = useRef({
    queue: [] as KeyEvent[],
    /** Keys handled so far; the one in flight is done when `committed` reaches it. */
    handled: 0,
    waiting: false,
    mounted: true,
  });

  const next = useCallback(() => {
    const s = st.current;
    if (!s.mounted || s.waiting) return;
    const ev = s.queue.shift();
    if (!ev) return;
    s.waiting = true;
    const r = ref.current(ev.input, ev.key);
    const chars = [...ev.input];
    if (r === 'split' && chars.length > 1) s.queue = [...chars.map((c) => ({ input: c, key: plainKey(c) })), ...s.queue];
    setCommitted(++s.handled);
  }, []);

  // A commit holding the last key's effects: the state it produced is now what handlers see.
  useLayoutEffect(() => {
    const s = st.current;
    if (!s.waiting || committed < s.handled) return;
    s.waiting = false;
    if (s.queue.length && s.mounted) setImmediate(next);
  }, [committed, next]);

  useEffect(() => {
    const s = st.current;
    s.mounted = true;
    return () => {
      s.mounted = false;
    };
  }, []);

  const onInput = useCallback(
    (input: string, key: Key) => {
      append(st.current.queue, splitChunk(input, key));
      next();
    },
    [next],
  );

  useInput(onInput, { isActive: active });

  const inject = useCallback(
    (events: readonly KeyEvent[]) => {
      append(st.current.queue, events);
      next();
    },
    [next],
  );
  return { inject };
}
