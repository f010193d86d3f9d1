/**
 * Asking the user for a `${input:ID}` value on the terminal (stdin in raw mode, the question
 * on stderr so stdout stays data). Masked (`*`) when the input is declared `password`.
 */
import { sanitizeLine } from '../util/sanitize.js';
import type { ConfigInput } from './types.js';

/** The user ended the question with Ctrl-C or Ctrl-D: the CLI exits as for SIGINT (130). */
export class InputCancelledError extends Error {
  readonly code = 'MCPI_CANCELLED' as const;
  constructor(readonly inputId: string) {
    super(`cancelled while asking for \${input:${inputId}}`);
    this.name = 'InputCancelledError';
  }
}

/** What the prompt needs of stdin: a TTY in raw mode. */
export interface PromptInput {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  on(event: 'data', l: (chunk: Buffer | string) => void): unknown;
  off(event: 'data', l: (chunk: Buffer | string) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

/** What the prompt needs of stderr. */
export interface PromptOutput {
  isTTY?: boolean;
  write(s: string): unknown;
}

/** True when a question can be asked: stdin and stderr are both terminals. */
export function canPrompt(input: PromptInput, output: PromptOutput): boolean {
  return !!input.isTTY && !!output.isTTY && typeof input.setRawMode === 'function';
}

/**
 * A `prompt(input)` for ResolveContext: writes `description (id): ` (with the default in
 * brackets, the choices of a pickString), reads one line in raw mode, echoes `*` for a
 * password, handles Backspace, ignores escape sequences (arrows), answers the default on an
 * empty line. Rejects with InputCancelledError on Ctrl-C / Ctrl-D. Strings from the config
 * file are stripped of escape sequences and control characters before they reach the terminal.
 */
export function ttyPrompt(input: PromptInput, output: PromptOutput): (q: ConfigInput) => Promise<string> {
  return (q) =>
    new Promise<string>((resolve, reject) => {
      const clean = sanitizeLine;
      const label = q.description ? `${clean(q.description)} (${clean(q.id)})` : clean(q.id);
      const choices = q.options?.length ? ` [${q.options.map(clean).join(' | ')}]` : '';
      const dflt = q.default !== undefined && !q.password ? ` [default: ${clean(q.default)}]` : q.default !== undefined ? ' [default: ****]' : '';
      output.write(`${label}${choices}${dflt}: `);
      let answer = '';
      const finish = (err?: Error) => {
        input.off('data', onData);
        input.setRawMode?.(false);
        input.pause();
        output.write('\n');
        if (err) reject(err);
        else resolve(answer === '' && q.default !== undefined ? q.default : answer);
      };
      const onData = (chunk: Buffer | string) => {
        const s = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
        for (let i = 0; i < s.length; i++) {
          const c = s[i];
          if (c === '\r' || c === '\n') return finish();
          if (c === '\u0003' || (c === '\u0004' && answer === '')) return finish(new InputCancelledError(q.id));
          if (c === '\u007f' || c === '\b') {
            if (answer) {
              answer = [...answer].slice(0, -1).join('');
              output.write('\b \b');
            }
            continue;
          }
          // An escape sequence (arrow keys, Home…): skip the rest of the chunk.
          if (c === '\u001b') break;
          if (c < ' ') continue;
          answer += c;
          output.write(q.password ? '*' : c);
        }
      };
      input.setRawMode?.(true);
      input.resume();
      input.on('data', onData);
    });
}
