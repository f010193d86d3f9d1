/**
 * The CLI's first module (bin/mcp-inspect.js loads it before dist/cli/main.js, when the command
 * line has a `--`): for a command line that surely spawns its stdio target as it is written,
 * the server is spawned here, so that its start-up (tens of ms for a node server, more for
 * `npx`) overlaps with the loading of mcp-inspect's own code rather than following it. The
 * stdio transport takes the process over when its command line, environment and folder are
 * the same (src/transport/held-child.ts); otherwise, or when the command ends before it
 * connects, the server is stopped. Kept small: it runs before everything else.
 */
import { spawnEnv } from '../transport/spawn-env.js';
import { spawnEarly } from '../transport/held-child.js';

export { discardEarlyChild } from '../transport/held-child.js';

/** The output flags of every command that may stand before `--` (they do not change the spawn). */
const OUTPUT_FLAGS: readonly string[] = ['--json', '--quiet', '--verbose', '--trace', '--no-color'];

/**
 * The commands whose only operand is the target and whose first act is to spawn it, with the
 * boolean flags of their own that may stand before `--`. Here rather than in the registry
 * (src/cli/commands/index.ts), whose module is not loaded this early; a test checks that
 * each is a command of the registry and each flag one of its options.
 */
export const SPAWNS_FIRST: Readonly<Record<string, readonly string[]>> = { discover: [], tools: ['--schema'] };

/**
 * Spawns the stdio target of `argv` (the CLI's arguments) when they are exactly a command
 * of {@link SPAWNS_FIRST}, flags of its own or {@link OUTPUT_FLAGS}, `--`, and a
 * command line: anything else (an operand, another option, `--help`) might change the spawn
 * or end in a usage error, and is left to main(). Returns whether it spawned.
 */
export function spawnTargetEarly(argv: readonly string[]): boolean {
  const sep = argv.indexOf('--');
  if (sep < 1 || sep === argv.length - 1 || !Object.hasOwn(SPAWNS_FIRST, argv[0])) return false;
  const own = SPAWNS_FIRST[argv[0]];
  if (!argv.slice(1, sep).every((a) => OUTPUT_FLAGS.includes(a) || own.includes(a))) return false;
  const [command, ...args] = argv.slice(sep + 1);
  spawnEarly({ command, args, env: spawnEnv() });
  return true;
}
