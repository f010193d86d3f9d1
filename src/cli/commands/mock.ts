/**
 * `mcp-inspect mock FILE`: the body (its spec, with the help: ./mock.spec.ts). Reads the file
 * (a recording or a snapshot), builds the answer book (src/record/mock-book.ts) and serves it
 * (src/record/mock.ts) over stdio until stdin closes, or over HTTP until a signal.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../../protocol/errors.js';
import { LIST_KINDS, LIST_KIND_IDS } from '../../protocol/list-kinds.js';
import type { CommandSpec } from '../command.js';
import { EXIT } from '../exit.js';
import type { MockBook } from '../../record/mock-book.js';

export interface MockFlags {
  http?: string | boolean;
  host: string;
  strict?: boolean;
  replayNotifications?: boolean;
}

const warn = (s: string) => process.stderr.write(`mcp-inspect: ${s}\n`);

/** The answer book of `file`: a recording (its first line names the format) or a snapshot. Throws UsageError. */
async function bookOf(file: string, strict: boolean): Promise<MockBook> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
  const firstLine = text.slice(0, text.indexOf('\n') < 0 ? text.length : text.indexOf('\n'));
  const mb = await import('../../record/mock-book.js');
  if (/"format"\s*:\s*"mcp-inspect\/recording@/.test(firstLine)) {
    const { parseRecording } = await import('../../record/format.js');
    const rec = parseRecording(text, file);
    for (const w of rec.warnings) warn(w);
    const book = mb.bookFromRecording(rec, strict);
    if (!book.eras.length)
      throw new UsageError(`${file} holds no answered initialize, server/discover or modern request: a mock cannot start a session from it`);
    return book;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`${file} is neither a recording (mcp-inspect proxy --record) nor a snapshot (mcp-inspect snapshot -o)`);
  }
  const { parseSnapshot } = await import('../../contract/snapshot.js');
  let s;
  try {
    s = parseSnapshot(value);
  } catch (e) {
    throw new UsageError(`${file}: ${(e as Error).message}`);
  }
  return mb.bookFromSurface(
    {
      serverInfo: s.server,
      capabilities: s.capabilities,
      ...(s.instructions ? { instructions: s.instructions } : {}),
      legacyVersion: s.era === 'legacy' ? s.protocolVersion : '2025-11-25',
      supportedVersions: s.era === 'modern' && s.supportedVersions.length ? s.supportedVersions : ['2026-07-28'],
      lists: LIST_KIND_IDS.map((k) => ({ method: LIST_KINDS[k].method, resultKey: LIST_KINDS[k].resultKey, items: s[k] })),
    },
    strict,
  );
}

/** The body of `mock`. */
export const mockBody: CommandSpec<MockFlags>['run'] = async (inv, words, flags) => {
  const [file, ...rest] = words;
  if (rest.length || inv.command.length) throw new UsageError('mock takes one file (a recording or a snapshot) and no server command');
  const book = await bookOf(file, !!flags.strict);
  const opts = { book, replayNotifications: !!flags.replayNotifications, warn };
  const { serveMockStdio, serveMockHttp } = await import('../../record/mock.js');
  if (flags.http === undefined) {
    await serveMockStdio(opts);
    return EXIT.ok;
  }
  const port = flags.http === true ? 0 : Number(flags.http);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--http takes a port number (got ${String(flags.http)})`);
  let server;
  try {
    server = await serveMockHttp({ ...opts, port, host: flags.host });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new UsageError(`port ${port} is already in use; pick another with --http PORT, or --http 0 for any free port`);
    throw e;
  }
  process.stdout.write(`${server.url}\n`);
  process.stderr.write(`mcp-inspect mock of ${file} (${book.eras.join(' and ')}); Ctrl-C to stop\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await server.close();
  return EXIT.ok;
};
