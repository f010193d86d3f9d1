/**
 * The registry: every command of mcp-inspect, in the order `--help` lists them. Adding a
 * command is its module (a CommandSpec, see src/cli/command.ts) plus its line here.
 */
import type { CommandSpec } from '../command.js';

export const COMMANDS: readonly CommandSpec<never>[] = [
  (await import('./discover.js')).discover,
  (await import('./tools.js')).tools,
  (await import('./call.js')).call,
  (await import('./auth.js')).auth,
  (await import('./resources.js')).resources,
  (await import('./prompts.js')).prompts,
  (await import('./listen.js')).listen,
  (await import('./snapshot.js')).snapshot,
  (await import('./diff.js')).diff,
  (await import('./check.js')).check,
  (await import('./servers.js')).servers,
  (await import('./completion.js')).completion,
  (await import('./demo.js')).demo,
  (await import('./demo.js')).demoServer,
];
