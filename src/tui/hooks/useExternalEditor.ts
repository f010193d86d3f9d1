import { useCallback } from 'react';
import { useStdin, useStdout } from 'ink';
import { useServices } from '../context/services.js';
import { RESUME_SCREEN, SUSPEND_SCREEN, runEditorSync, type EditorOutcome, type EditorRequest } from '../forms/editor.js';

/**
 * A function that edits `text` in the user's editor (src/tui/forms/editor.ts) with the TUI
 * suspended: on a terminal it leaves the alternate screen and raw mode, runs the editor (the
 * services' `editExternally`, else the real one), then restores raw mode and the alternate
 * screen and has Ink draw its whole last frame again (Ink's `write` clears its output and
 * redraws it), so that the screen comes back intact even when the text did not change.
 */
export function useExternalEditor(): (text: string, req: EditorRequest) => EditorOutcome {
  const services = useServices();
  const { stdout, write } = useStdout();
  const { stdin } = useStdin();
  return useCallback(
    (text: string, req: EditorRequest) => {
      const tty = !!stdout.isTTY && !!stdin.isTTY;
      if (tty) {
        stdout.write(SUSPEND_SCREEN);
        stdin.setRawMode(false);
      }
      try {
        return (services.editExternally ?? runEditorSync)(text, req);
      } finally {
        if (tty) {
          stdin.setRawMode(true);
          stdout.write(RESUME_SCREEN);
          write('');
        }
      }
    },
    [services, stdout, stdin, write],
  );
}
