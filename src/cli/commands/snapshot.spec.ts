/**
 * The registry entry of `snapshot`: name, summary, options and help (cheap: it loads for
 * `--help` and for every other command); the body, ./snapshot.ts, is imported when it runs.
 */
import { addCommonOptions } from '../options.js';
import { TARGET_HELP, type CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';
import type { SnapshotFlags } from './snapshot.js';

/** `mcp-inspect snapshot [target] [-o FILE]`. */
export const snapshot: CommandSpec<SnapshotFlags> = {
  name: 'snapshot',
  description: "write the server's surface as canonical JSON (for mcp-inspect diff and CI)",
  configure: (cmd) =>
    addCommonOptions(cmd)
      .argument('[target]', 'URL of the server (or a command after --)')
      .option('-o, --output <file>', 'write the snapshot to this file instead of stdout')
      .addHelpText(
        'after',
        `
The snapshot is sorted and normalised (keys, entries, required lists) and carries no
timestamp: commit it, and let \`mcp-inspect diff\` compare it with the live server.
With --json, prints {"snapshot": …, "file": …, "findings": […]}.
${TARGET_HELP}

Examples:
  mcp-inspect snapshot -o mcp-snapshot.json -- node dist/server.js
  mcp-inspect snapshot http://127.0.0.1:3000/mcp > mcp-snapshot.json

${exitCodesHelp()}`,
      ),
  run: async (inv, words, flags) => (await import('./snapshot.js')).snapshotBody(inv, words, flags),
};
