/**
 * What the TUI needs from outside React, injected through context so that components and
 * hooks can be tested with plain fakes: the watch loop, the diff, schema validation, the
 * clock, and writing a result file. `defaultServices()` wires the real modules.
 */
import { createContext, useContext } from 'react';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { InspectorClient, WatchEvent } from '../client/types.js';
import type { ListenFilter, Tool } from '../protocol/types.js';
import type { ToolDiff } from '../watch/types.js';
import type { ValidationResult } from '../schema/validate.js';
import { watchTools } from '../client/watch.js';
import { diffTools } from '../watch/diff.js';
import { validateValue } from '../schema/validate.js';

export interface TuiServices {
  /** `watchTools` of src/client/watch.ts: first list, listen events, diffs, reconnects. */
  watchTools(client: InspectorClient, opts: { filter?: ListenFilter; pollMs?: number; signal?: AbortSignal }): AsyncIterable<WatchEvent>;
  /** `diffTools` of src/watch/diff.ts. */
  diffTools(before: Tool[], after: Tool[]): ToolDiff;
  /** `validateValue` of src/schema/validate.ts (Ajv, dialect-aware). */
  validate(schema: unknown, value: unknown, opts?: { noun?: string; rootLabel?: string }): ValidationResult;
  /** Writes `json` (already a string) for `toolName`'s result; resolves to the absolute path written. */
  saveResult(toolName: string, json: string, time: number): Promise<string>;
  /** ms since epoch. */
  now(): number;
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
 * `watch.minRefetchIntervalMs` is passed to every watch (see WatchOptions in src/client/watch.ts).
 */
export function defaultServices(cwd: string = process.cwd(), watch: { minRefetchIntervalMs?: number } = {}): TuiServices {
  return {
    watchTools: (client, opts) => watchTools(client, { ...opts, minRefetchIntervalMs: watch.minRefetchIntervalMs }),
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
