/**
 * `-o FILE` / `--output FILE`: the one way every command writes bytes to a file (a resource's
 * decoded blob or text, a tool result's content). Refuses to write through a directory and
 * says which file could not be written.
 */
import { writeFileSync } from 'node:fs';
import { UsageError } from '../protocol/errors.js';

/** The option's spelling, for every command that writes a file. */
export const OUTPUT_FLAG = '-o, --output <file>';

/** Writes `data` to `path` (created or replaced). Returns the number of bytes written. Throws UsageError when it cannot. */
export function writeOutputFile(path: string, data: Uint8Array | string): number {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  try {
    writeFileSync(path, bytes);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(
      `--output ${path}: ${code === 'ENOENT' ? 'no such directory' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : (e as Error).message}`,
    );
  }
  return bytes.length;
}
