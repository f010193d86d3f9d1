/**
 * The one module of src/config that touches the process: reading files and building a
 * {@link ConfigContext} from the real cwd, home, platform and environment.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import type { ConfigContext } from './types.js';

/**
 * Reads a config file as UTF-8. Returns undefined when there is no such file (ENOENT, or a
 * path through a non-folder: ENOTDIR); throws the Node error otherwise (EACCES, EISDIR…).
 */
export function readConfigFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw e;
  }
}

/** A context for the running process; `overrides` replace fields (e.g. `configFile` from `--config`). */
export function processConfigContext(overrides: Partial<ConfigContext> = {}): ConfigContext {
  return { cwd: process.cwd(), home: homedir(), platform: process.platform, env: process.env, readFile: readConfigFile, ...overrides };
}
