/**
 * Getting the authorization URL in front of the user: a command given by `--browser CMD`
 * or `BROWSER` (run without a shell, the URL as its last argument or in place of `%s`;
 * this is also how tests and headless CI drive the flow), the desktop's browser through
 * the `open` package, or nothing but the printed URL (`--no-browser`, or no display).
 */
import { splitWords } from '../util/words.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { AuthError } from './errors.js';
import { openableUrl, shellSafeUrl } from '../util/open-url.js';

/** Programs that run their arguments as a script: a `%s` given to them is shell-escaped. */
const SHELLS = /^(sh|bash|dash|zsh|ksh|mksh|ash|fish|busybox|env|cmd|cmd\.exe|powershell|powershell\.exe|pwsh|pwsh\.exe)$/i;

/** How to open the authorization URL. */
export type BrowserChoice = { kind: 'command'; command: string } | { kind: 'system' } | { kind: 'none' };

/**
 * Picks how to open URLs: `noBrowser` → none; `browser` (the flag) → that command; else
 * `BROWSER` from `env` → that command; else the system browser, except on a Unix without
 * `DISPLAY`/`WAYLAND_DISPLAY` (SSH, CI) → none. Pure.
 */
export function resolveBrowser(o: { browser?: string; noBrowser?: boolean; env?: NodeJS.ProcessEnv; platform?: NodeJS.Platform } = {}): BrowserChoice {
  if (o.noBrowser) return { kind: 'none' };
  if (o.browser?.trim()) return { kind: 'command', command: o.browser };
  const env = o.env ?? process.env;
  if (env.BROWSER?.trim()) return { kind: 'command', command: env.BROWSER };
  const platform = o.platform ?? process.platform;
  if (platform !== 'darwin' && platform !== 'win32' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return { kind: 'none' };
  return { kind: 'system' };
}

/**
 * Splits the browser command line into words ({@link splitWords}: as a POSIX shell splits
 * plain words, quotes and backslashes, no expansion). Pure. Throws
 * AuthError('MCPI_AUTH_BROWSER') on an unterminated quote or an empty command.
 */
export function splitCommand(cmd: string): string[] {
  let words: string[];
  try {
    words = splitWords(cmd);
  } catch (e) {
    throw new AuthError('MCPI_AUTH_BROWSER', `the browser command has an ${(e as Error).message}: ${cmd}`);
  }
  if (words.length === 0) throw new AuthError('MCPI_AUTH_BROWSER', 'the browser command is empty');
  return words;
}

/** What opening did. */
export interface OpenResult {
  /** True when a browser (command or system) was started. */
  opened: boolean;
  /**
   * For a command: resolves with its exit code once it exits (null = killed by a signal),
   * and with undefined for the system browser or none. Never rejects.
   */
  exited: Promise<number | null | undefined>;
  /** Stops a command that is still running (idempotent). */
  stop(): void;
}

/**
 * Opens `url` as `choice` says. The URL must be `https:` (or `http:` on loopback; see
 * openableUrl in src/util/open-url.ts): it comes from server metadata, and a `file:` or
 * custom scheme never reaches a launcher. In a `%s` template it is shell-escaped
 * (shellSafeUrl); a plain command gets it as its last argument, without a shell. Resolves once the browser was
 * started; rejects with AuthError('MCPI_AUTH_BROWSER') when the command cannot start.
 * The system browser failing to start is not an error: `opened` is false and the caller
 * prints the URL.
 */
export async function openBrowser(
  url: string,
  choice: BrowserChoice,
  o: { env?: NodeJS.ProcessEnv; onStderr?: (line: string) => void } = {},
): Promise<OpenResult> {
  const verdict = openableUrl(url);
  if (!verdict.ok) throw new AuthError('MCPI_AUTH_BROWSER', `refusing to open the authorization URL: ${verdict.reason}`);
  const none: OpenResult = { opened: false, exited: Promise.resolve(undefined), stop: () => undefined };
  if (choice.kind === 'none') return none;
  if (choice.kind === 'system') {
    try {
      const { default: open } = await import('open');
      const child = await open(url);
      child.on('error', () => undefined);
      return { opened: true, exited: Promise.resolve(undefined), stop: () => undefined };
    } catch {
      return none;
    }
  }
  const words = splitCommand(choice.command);
  const hasPlaceholder = words.some((w) => w.includes('%s'));
  // A plain command gets the URL as one argument of its own, never through a shell (no %s, or
  // `firefox %s`: %s alone as a word of a program that is not a shell). A template that may be
  // a shell script (`sh -c 'firefox %s'`, %s inside a longer word) gets the URL with every
  // shell-special character percent-encoded, so the authorization server's text never runs.
  const viaShell = SHELLS.test(words[0].split(/[\\/]/).pop() ?? '') || words.slice(1).some((w) => w.includes('%s') && w !== '%s');
  const put = viaShell ? shellSafeUrl(url) : url;
  const args = hasPlaceholder ? words.slice(1).map((w) => w.replaceAll('%s', put)) : [...words.slice(1), url];
  let child: ChildProcess;
  try {
    child = spawn(words[0], args, { stdio: ['ignore', 'ignore', 'pipe'], env: o.env ?? process.env });
  } catch (e) {
    throw new AuthError('MCPI_AUTH_BROWSER', `cannot run the browser command ${words[0]}: ${(e as Error).message}`, { cause: e });
  }
  let stderrBuf = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => {
    stderrBuf += d;
    let nl: number;
    while ((nl = stderrBuf.indexOf('\n')) >= 0) {
      o.onStderr?.(stderrBuf.slice(0, nl));
      stderrBuf = stderrBuf.slice(nl + 1);
    }
  });
  const started = await new Promise<Error | undefined>((resolve) => {
    child.once('spawn', () => resolve(undefined));
    child.once('error', (e) => resolve(e));
  });
  if (started) throw new AuthError('MCPI_AUTH_BROWSER', `cannot run the browser command ${words[0]}: ${started.message}`, { cause: started });
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else
      child.once('exit', (code) => {
        if (stderrBuf) o.onStderr?.(stderrBuf);
        resolve(code);
      });
  });
  return {
    opened: true,
    exited,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}
