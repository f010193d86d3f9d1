/**
 * The registry: every command of mcp-inspect, in the order `--help` lists them. Adding a
 * command is its module (a CommandSpec, see src/cli/command.ts) plus its line here.
 */
import type { CommandSpec } from '../command.js';

export const COMMANDS: readonly CommandSpec<never>[] = [
  (await import('./discover.js')).discover,
  (await import('./tools.js')).tools,
  (await import('./call.js')).call,
  (await import('./listen.js')).listen,
  (await import('./servers.js')).servers,
  (await import('./completion.js')).completion,
  (await import('./demo.js')).demo,
  (await import('./demo.js')).demoServer,
];
