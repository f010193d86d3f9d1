import { useCallback, useRef } from 'react';
import { useInput, type Key } from 'ink';

/**
 * `useInput` with a handler that always sees the latest render's state. Ink delivers every
 * key of one stdin chunk in a loop; each key's state update renders synchronously, and the
 * ref is refreshed during that render, so the next key of the same chunk is handled with
 * fresh state (a plain closure would be one render late and drop typed characters).
 */
export function useKeys(handler: (input: string, key: Key) => void, active = true): void {
  const ref = useRef(handler);
  ref.current = handler;
  const stable = useCallback((input: string, key: Key) => ref.current(input, key), []);
  useInput(stable, { isActive: active });
}
