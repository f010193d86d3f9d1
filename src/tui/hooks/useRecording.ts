import { useCallback, useEffect, useState } from 'react';
import { useServices } from '../context/services.js';
import type { StyleKey } from '../context/theme.js';
import type { FlashOptions } from '../panes/types.js';
import type { WireEvent } from '../../client/types.js';
import { describeError } from '../model/errors.js';

/**
 * The `W` key: starts and stops recording the session's traffic (services.recorder, built by
 * the CLI), saying so on the status line. `file` is the recording being written (the header
 * shows ● REC while it is set). A recording starts with `past`, the messages the Wire pane still
 * holds (the handshake, so that a recording started mid-session replays). A recorder that was
 * given a file at start (`--record FILE`) is recording already when the TUI opens.
 */
export function useRecording(
  flash: (text: string, style?: StyleKey, opts?: FlashOptions) => void,
  past: readonly WireEvent[],
): { file: string | undefined; toggle(): void } {
  const { recorder } = useServices();
  const [file, setFile] = useState(recorder?.file);
  useEffect(() => setFile(recorder?.file), [recorder]);
  const toggle = useCallback(() => {
    if (!recorder) return flash('Recording is not available here', 'warn', { ttlMs: 4000 });
    if (recorder.file) {
      const done = recorder.stop();
      setFile(undefined);
      return flash(`Recording saved: ${done ?? '?'} (mcp-inspect replay / mock read it)`, 'ok');
    }
    recorder.start(past).then(
      (f) => {
        setFile(f);
        flash(`Recording to ${f} (W stops)`, 'ok', { ttlMs: 5000 });
      },
      (e: unknown) => flash(`Cannot record: ${describeError(e)}`, 'error'),
    );
  }, [recorder, flash, past]);
  return { file, toggle };
}
