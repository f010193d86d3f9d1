/**
 * A collection's file I/O: reading one (./format.ts parses it), and appending a call to one
 * under a lock, keeping everything else the file holds (other calls, unknown top-level keys,
 * comments): the new call is inserted with jsonc-parser's edits, not by rewriting the document.
 *
 * Two writers (two `call --save` at once, the TUI and a script) must not lose a call: the
 * append takes `FILE.lock` (created exclusively; a lock older than {@link STALE_LOCK_MS} is a
 * crashed writer's and is broken), reads the file as it is then, picks the name, writes a
 * temporary file beside it and renames it over the file (atomic on one file system), then
 * drops the lock.
 */
import { closeSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { applyEdits, modify } from 'jsonc-parser';
import { COLLECTION_FORMAT, CollectionError, parseCollection, uniqueName, TARGET_FIELD, type CallEntry, type Collection } from './format.js';

/** A lock file older than this (ms) is left by a writer that died: it is removed. */
export const STALE_LOCK_MS = 30_000;
/** How long an append waits for another writer's lock (ms) before giving up. */
export const LOCK_WAIT_MS = 15_000;

const errnoCode = (e: unknown) => (e as NodeJS.ErrnoException).code;

/** The text of `file`. Throws CollectionError('MCPI_COLLECTION_READ') when it cannot be read (`missing`: the message for a file that does not exist). */
function readText(file: string, missing = 'no such file'): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new CollectionError('MCPI_COLLECTION_READ', `cannot read the collection ${file}: ${errnoCode(e) === 'ENOENT' ? missing : (e as Error).message}`, {
      file,
    });
  }
}

/** Reads and parses a collection file. Throws CollectionError (read, syntax, shape: see ./format.ts parseCollection). */
export function readCollection(file: string): Collection {
  return parseCollection(readText(file), file);
}

/** Takes `FILE.lock` (waiting for another writer, breaking a stale lock); resolves to its release. Throws CollectionError after {@link LOCK_WAIT_MS}. */
async function lock(file: string, waitMs = LOCK_WAIT_MS): Promise<() => void> {
  const path = `${file}.lock`;
  const until = Date.now() + waitMs;
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => {
        try {
          unlinkSync(path);
        } catch {
          /* already broken as stale by another writer: nothing to release */
        }
      };
    } catch (e) {
      if (errnoCode(e) !== 'EEXIST')
        throw new CollectionError('MCPI_COLLECTION_READ', `cannot lock the collection ${file} (${path}): ${(e as Error).message}`, { file });
    }
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_LOCK_MS) {
        unlinkSync(path);
        continue;
      }
    } catch {
      continue; // released meanwhile
    }
    if (Date.now() > until)
      throw new CollectionError(
        'MCPI_COLLECTION_READ',
        `the collection ${file} is locked by another writer (${path}); remove that file if no mcp-inspect is writing`,
        {
          file,
        },
      );
    await sleep(pause);
  }
}

/** Writes `text` to `file` through a temporary file renamed over it. */
function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      /* never written */
    }
    throw new CollectionError('MCPI_COLLECTION_READ', `cannot write the collection ${file}: ${(e as Error).message}`, { file });
  }
}

/** What {@link appendCall} did. */
export interface Appended {
  /** The call's name in the file. */
  name: string;
  /** The file did not exist and was made. */
  created: boolean;
  /** The name asked for (`entry.name`) was taken, so another was given (`add-2`). */
  renamed: boolean;
}

/**
 * Appends `entry` to the collection `file` (made when missing, with the format line), under
 * the lock. Its name: `entry.name`, else its tool's or prompt's (`read` for a resource),
 * numbered when the file has it already (`add`, `add-2`, `add-3`…). The file must parse as a
 * collection: a broken one is refused, never overwritten. Resolves to the name given.
 * Throws CollectionError (read/write, syntax, shape, or the lock not obtained in time).
 */
export async function appendCall(file: string, entry: CallEntry): Promise<Appended> {
  const release = await lock(file);
  try {
    let text: string | undefined;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      if (errnoCode(e) !== 'ENOENT') throw new CollectionError('MCPI_COLLECTION_READ', `cannot read the collection ${file}: ${(e as Error).message}`, { file });
    }
    const created = text === undefined || text.trim() === '';
    const existing = created ? [] : parseCollection(text!, file).calls.map((c) => c.name);
    const method = entry.method ?? 'tools/call';
    const wanted = entry.name ?? (method === 'resources/read' ? 'read' : String(entry[TARGET_FIELD[method]] ?? 'call'));
    const name = uniqueName(wanted, existing);
    // The name first, then the rest in the format's order.
    const call: Record<string, unknown> = { name, ...entry };
    call.name = name;
    if (created) writeAtomically(file, `${JSON.stringify({ format: COLLECTION_FORMAT, calls: [call] }, null, 2)}\n`);
    else {
      const edits = modify(text!, ['calls', -1], call, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: text!.includes('\r\n') ? '\r\n' : '\n' } });
      writeAtomically(file, applyEdits(text!, edits));
    }
    return { name, created, renamed: name !== wanted };
  } finally {
    release();
  }
}

/** The names of the calls in `file` (none when it does not exist). Throws CollectionError for a file that exists but is not a collection. */
export function callNames(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return [];
    throw new CollectionError('MCPI_COLLECTION_READ', `cannot read the collection ${file}: ${(e as Error).message}`, { file });
  }
  return text.trim() === '' ? [] : parseCollection(text, file).calls.map((c) => c.name);
}
