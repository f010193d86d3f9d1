/**
 * Rules over what a stdio server writes on stdout. Pure. spec: basic/transports/stdio
 */
import { sanitizeLine } from '../../util/sanitize.js';
import { clip } from '../evidence.js';
import { finding } from '../rules.js';
import type { Finding } from '../types.js';

/** `stdio.non-json-line`: a stdout line that does not parse as JSON (the server must write only MCP messages there). */
export function nonJsonLine(line: string): Finding {
  return finding('stdio.non-json-line', `ignored a line on the server's stdout that is not JSON: ${sanitizeLine(line).slice(0, 120)}`, {
    evidence: { response: clip(line) },
  });
}

/** `stdio.line-too-long`: a stdout line over `maxBytes` (discarded). `head` is the start of the line, kept as evidence. */
export function lineTooLong(maxBytes: number, head: string): Finding {
  return finding('stdio.line-too-long', `the server wrote a line over ${maxBytes} bytes on stdout; it was discarded`, {
    key: String(maxBytes),
    data: { maxBytes },
    evidence: { response: clip(head) },
  });
}
