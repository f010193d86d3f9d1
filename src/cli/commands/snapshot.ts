/**
 * `mcp-inspect snapshot <target> [-o FILE]`: the server's surface as canonical JSON (server
 * info, era and protocol, capabilities, tools, prompts, resources, resource templates, all
 * pages), fit to commit and compare with `mcp-inspect diff`. Two snapshots of an unchanged
 * server are byte-identical. spec: server/discover, server/tools, server/prompts, server/resources
 */
import { writeFileSync } from 'node:fs';
import { UsageError } from '../../protocol/errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { type CommonFlags } from '../options.js';
import { runOnTarget, type CommandSpec } from '../command.js';
import { EXIT } from '../exit.js';
import { writeOut } from '../stdout.js';

export interface SnapshotFlags extends CommonFlags {
  output?: string;
}

/** The body of `snapshot` (its spec, with the help: ./snapshot.spec.ts). */
export const snapshotBody: CommandSpec<SnapshotFlags>['run'] = (inv, words, flags) =>
  runOnTarget('snapshot', inv, words, flags, async (s) => {
    const { takeSnapshot, serializeSnapshot } = await import('../../contract/snapshot.js');
    const stop = s.out.wait('reading the surface');
    const snap = await takeSnapshot(s.client, s.signal).finally(stop);
    const text = serializeSnapshot(snap);
    if (flags.output) {
      try {
        writeFileSync(flags.output, text);
      } catch (e) {
        throw new UsageError(`cannot write ${sanitizeLine(flags.output)}: ${(e as Error).message}`);
      }
    }
    return {
      exitCode: EXIT.ok,
      json: { snapshot: snap, file: flags.output ?? null },
      text: (out) => {
        if (flags.output)
          out.info(
            `wrote ${flags.output}: ${snap.tools.length} tools, ${snap.prompts.length} prompts, ${snap.resources.length} resources, ${snap.resourceTemplates.length} resource templates`,
          );
        else writeOut(text);
      },
    };
  });
