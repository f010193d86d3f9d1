/**
 * Reads a recording file (format: ./format.ts): the file I/O beside the pure parser.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../protocol/errors.js';
import { parseRecording, type Recording } from './format.js';

/** Reads and parses `file`. Throws UsageError when it cannot be read, RecordingError when it is not a readable recording. */
export function readRecording(file: string): Recording {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `no such recording: ${file}` : `cannot read the recording ${file}: ${(e as Error).message}`);
  }
  return parseRecording(text, file);
}
