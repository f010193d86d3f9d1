/**
 * What the TUI needs from outside React, injected through context so that components and
 * hooks can be tested with plain fakes: the watch loop, the diff, schema validation, the
 * clock, and writing a result file. `defaultServices()` wires the real modules.
 */
import { createContext, useContext } from 'react';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { InspectorClient, ListSnapshot, ListenSessionEvent, WireEvent } from '../../client/types.js';
import type { CallToolResult, JsonObject, ListenFilter, Tool } from '../../protocol/types.js';
import type { ToolDiff } from '../../diff/types.js';
import type { ValidationResult } from '../../schema/validate.js';
import { listenSession } from '../../client/listen-session.js';
import { diffTools } from '../../diff/diff.js';
import { validateValue } from '../../schema/validate.js';
import type { InlinePicture } from '../images/inline.js';
import { openableUrl } from '../../util/open-url.js';
import type { CallHistory } from '../../state/call-history.js';

/**
 * Records the traffic the TUI sees to a file (the `W` key; `--record FILE` at start): built by
 * the CLI (src/cli/tui-recorder.ts writes the recording format), fed every wire event and
 * stderr line by the shell.
 */
export interface TuiRecorder {
  /** The file being written now; undefined while not recording. */
  readonly file: string | undefined;
  /**
   * Starts a recording (the `--record` file the first time, else a new file in the working
   * folder), beginning with `past` (the messages the Wire pane still holds: the handshake, so
   * that replay and mock can use a recording started mid-session); resolves to its path.
   * Rejects when it cannot be created.
   */
  start(past?: readonly WireEvent[]): Promise<string>;
  /** Stops recording; the file that was written (undefined when none was). */
  stop(): string | undefined;
  /** A wire event and a stderr line of the session (ignored while not recording). */
  wire(e: WireEvent): void;
  stderr(line: string): void;
  /** Where the recorder's own notes go (the cap was reached, the disk is full): set by the shell to its Log pane. */
  onWarning?: (message: string) => void;
}

export interface TuiServices {
  /** Records the session's traffic (the `W` key). Absent: the key says recording is not available. */
  recorder?: TuiRecorder;
  /** `listenSession` of src/client/listen-session.ts: first list, listen events, diffs, reconnects. */
  listenSession(
    client: InspectorClient,
    opts: { filter?: ListenFilter; pollMs?: number; signal?: AbortSignal; baseline?: ListSnapshot; maxBackoffMs?: number },
  ): AsyncIterable<ListenSessionEvent>;
  /** `diffTools` of src/diff/diff.ts. */
  diffTools(before: Tool[], after: Tool[]): ToolDiff;
  /** `validateValue` of src/schema/validate.ts (Ajv, dialect-aware). */
  validate(schema: unknown, value: unknown, opts?: { noun?: string; rootLabel?: string }): ValidationResult;
  /** Writes `json` (already a string) for `toolName`'s result; resolves to the absolute path written. */
  saveResult(toolName: string, json: string, time: number): Promise<string>;
  /** ms since epoch. */
  now(): number;
  /**
   * Runs `fn` once after `ms` ms; returns a function that cancels it. For debounced work
   * (completion requests as the user types); tests inject a fake to fire it by hand.
   * Absent: the real `setTimeout`.
   */
  schedule?(fn: () => void, ms: number): () => void;
  /**
   * Writes `data` (decoded bytes, or text as UTF-8) to a new file named after `name` in the
   * working directory, never overwriting (`-1`, `-2`… suffixes); resolves to the absolute
   * path. Absent: the real file system.
   */
  saveFile?(name: string, data: Uint8Array | string): Promise<string>;
  /** Opens `url` in the user's browser (only ever called after the user said yes). Absent: the platform's opener. */
  openUrl?(url: string): Promise<void>;
  /**
   * Edits `text` in the user's editor and returns the result (see `runEditorSync` in
   * src/tui/forms/editor.ts; called with the TUI suspended). Absent: `$VISUAL` / `$EDITOR` / vi.
   */
  editExternally?(text: string, req: { name: string; ext: string }): { text: string } | { error: string };
  /**
   * The environment the picture protocol and color depth are read from (see
   * src/tui/images/protocol.ts). Absent: process.env.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Shows a picture full-screen with a terminal graphics protocol, outside Ink's frame: Ink's
   * output is held back, the screen cleared, `draw(cols, rows)` (the escape for a picture of at
   * most that many cells) written at the top left and `footer` on the last row. Returns the
   * function that takes it away and lets Ink draw its whole frame again. Absent: pictures are
   * shown full-screen as blocks only.
   */
  showImage?(draw: (cols: number, rows: number) => string, footer: string): () => void;
  /**
   * Registers the pictures the result view reserved cells for (see src/tui/images/inline.ts):
   * after each frame, those whose markers are wholly in the frame are drawn with their escape
   * at their cells; the others are not drawn (kitty placements deleted). Replaces the previous
   * list; an empty list withdraws them all. Absent: pictures in the view are drawn as blocks.
   */
  setInlinePictures?(pictures: readonly InlinePicture[]): void;
  /** This server's history of calls, kept across sessions (src/state/call-history.ts). Absent: calls are not remembered. */
  history?: CallHistory;
  /**
   * Appends a call to the collection file `file` (made when missing), its result as the
   * expectation, named after the tool (numbered when taken); resolves to the file's absolute
   * path and the name given. Absent: adding to a collection is not offered.
   */
  addToCollection?(file: string, call: { tool: string; arguments: JsonObject; result: CallToolResult }): Promise<{ path: string; name: string }>;
}

/** The real `schedule` (see {@link TuiServices.schedule}). */
export function realSchedule(fn: () => void, ms: number): () => void {
  const id = setTimeout(fn, ms);
  return () => clearTimeout(id);
}

/** Writes a new file in `cwd` named after `name` (sanitized), never overwriting; resolves to its absolute path. */
export async function saveNewFile(cwd: string, name: string, data: Uint8Array | string): Promise<string> {
  const safe = fileSlug(name || 'resource');
  const dot = safe.lastIndexOf('.');
  const stem = dot > 0 ? safe.slice(0, dot) : safe;
  const ext = dot > 0 ? safe.slice(dot) : '';
  for (let i = 0; i < 100; i++) {
    const path = resolve(cwd, i === 0 ? safe : `${stem}-${i}${ext}`);
    try {
      await writeFile(path, data, { flag: 'wx' });
      return path;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  throw new Error('too many files with the same name');
}

/**
 * The platform's opener for `url`, without any shell: `open` (macOS), `rundll32
 * url.dll,FileProtocolHandler` (Windows: never `cmd /c start`, which would parse `&`, `^`,
 * `%…%` in the URL), `xdg-open` elsewhere. Pure.
 */
export function platformOpener(url: string, platform: NodeJS.Platform = process.platform): [string, string[]] {
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}

/**
 * Opens a URL with the platform's opener ({@link platformOpener}), detached; rejects when it
 * cannot be started, and without starting anything when the URL is not `https:` (or `http:`
 * on loopback: see openableUrl in src/util/open-url.ts).
 */
export async function openWithPlatform(url: string): Promise<void> {
  const verdict = openableUrl(url);
  if (!verdict.ok) throw new Error(verdict.reason);
  const { spawn } = await import('node:child_process');
  const [cmd, args] = platformOpener(url);
  await new Promise<void>((res, rej) => {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.once('error', rej);
    child.once('spawn', () => {
      child.unref();
      res();
    });
  });
}

/** A file-name-safe slug of a tool name (max 60 chars). */
export function fileSlug(name: string): string {
  const s = name
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^[.]+/, '')
    .slice(0, 60);
  return s || 'tool';
}

/** `mcp-inspect-result-<tool>-<YYYYMMDD-HHMMSS>.json` for a local time. */
export function resultFileName(toolName: string, time: number): string {
  const d = new Date(time);
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
  return `mcp-inspect-result-${fileSlug(toolName)}-${stamp}.json`;
}

/**
 * The real services. `cwd` is where result files are written (default: process.cwd());
 * `watch.minRefetchIntervalMs` is passed to every watch (see ListenSessionOptions in src/client/listen-session.ts).
 */
export function defaultServices(cwd: string = process.cwd(), watch: { minRefetchIntervalMs?: number } = {}): TuiServices {
  return {
    listenSession: (client, opts) => listenSession(client, { ...opts, minRefetchIntervalMs: watch.minRefetchIntervalMs }),
    diffTools,
    validate: validateValue,
    async saveResult(toolName, json, time) {
      const base = resolve(cwd, resultFileName(toolName, time));
      // Never overwrite: two saves in the same second get -1, -2… suffixes.
      for (let i = 0; i < 100; i++) {
        const path = i === 0 ? base : base.replace(/\.json$/, `-${i}.json`);
        try {
          await writeFile(path, json, { flag: 'wx' });
          return path;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        }
      }
      throw new Error('too many result files with the same name');
    },
    now: () => Date.now(),
    schedule: realSchedule,
    saveFile: (name, data) => saveNewFile(cwd, name, data),
    async addToCollection(file, call) {
      // The collection module (format, numbered names, expectations, the lock): loaded when first used.
      const [{ appendCall }, { savedCall }] = await Promise.all([import('../../collection/file.js'), import('../../collection/format.js')]);
      const path = resolve(cwd, file);
      const r = await appendCall(path, savedCall({ method: 'tools/call', target: call.tool, arguments: call.arguments, result: call.result }));
      return { path, name: r.name };
    },
    openUrl: openWithPlatform,
  };
}

/** React context carrying the services (see {@link TuiServices}); provided by runTui, or by tests with fakes. */
export const ServicesContext = createContext<TuiServices | null>(null);

/** The injected services; throws when rendered outside a provider (a programming error). */
export function useServices(): TuiServices {
  const s = useContext(ServicesContext);
  if (!s) throw new Error('TuiServices not provided');
  return s;
}
