/**
 * `servers --wrap NAME` / `--unwrap NAME` (part of `servers`, ./servers.ts): prints the change
 * of the entry's command line, and with `--write` applies it to the config file, keeping the
 * old file as FILE.bak. The edit itself is src/config/wrap.ts (pure).
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { UsageError } from '../../protocol/errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { EXIT } from '../exit.js';
import type { ServersFlags } from './servers.js';

type Config = typeof import('../../config/index.js');
type Ctx = import('../../config/index.js').ConfigContext;
type Discovery = import('../../config/index.js').Discovery;

/** The body of `servers --wrap/--unwrap`. Throws UsageError (a ConfigError) for an entry that cannot be changed. */
export async function wrapBody(config: Config, ctx: Ctx, d: Discovery, flags: ServersFlags): Promise<number> {
  if (flags.wrap !== undefined && flags.unwrap !== undefined) throw new UsageError('give --wrap NAME or --unwrap NAME, not both');
  if (flags.record !== undefined && flags.wrap === undefined) throw new UsageError('--record goes with --wrap NAME');
  const name = (flags.wrap ?? flags.unwrap)!;
  const wrap = await import('../../config/wrap.js');
  const { server } = config.findServer(name, ctx, d);
  if (!server.entry) throw server.error ?? new UsageError(`${name}: the entry cannot be read`);
  const text = config.readConfigFile(server.source.file);
  if (text === undefined) throw new UsageError(`cannot read ${server.source.file}`);
  const path = wrap.serversPath(server.source, text);
  const before = { command: server.entry.command ?? '', args: server.entry.args ?? [] };
  const after = flags.wrap !== undefined ? wrap.wrapped(name, server.entry, flags.record) : wrap.unwrapped(name, server.entry);
  const next = wrap.withCommandLine(text, path, name, after);
  const where = config.describeSource(server.source, ctx);
  const show = (l: { command: string; args: string[] }) => sanitizeLine(JSON.stringify({ command: l.command, args: l.args }));
  process.stdout.write(`${sanitizeLine(name)} in ${sanitizeLine(where)}:\n- ${show(before)}\n+ ${show(after)}\n`);
  if (!flags.write) {
    process.stdout.write(`(not written: add --write to change the file; the old one is kept as ${sanitizeLine(server.source.file)}.bak)\n`);
    return EXIT.ok;
  }
  copyFileSync(server.source.file, `${server.source.file}.bak`);
  writeFileSync(server.source.file, next);
  process.stdout.write(`written; the old file is ${sanitizeLine(server.source.file)}.bak. Restart the host to use it.\n`);
  return EXIT.ok;
}
