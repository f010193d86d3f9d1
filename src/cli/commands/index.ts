/**
 * The registry: every command of mcp-inspect, in the order `--help` lists them. Adding a
 * command is its module (a CommandSpec, see src/cli/command.ts) plus its line here.
 */
import type { CommandSpec } from '../command.js';

export const COMMANDS: readonly CommandSpec<never>[] = [
  (await import('./discover.spec.js')).discover,
  (await import('./tools.spec.js')).tools,
  (await import('./call.spec.js')).call,
  (await import('./request.spec.js')).request,
  (await import('./load.spec.js')).load,
  (await import('./tasks.spec.js')).tasks,
  (await import('./auth.spec.js')).auth,
  (await import('./resources.spec.js')).resources,
  (await import('./prompts.spec.js')).prompts,
  (await import('./listen.spec.js')).listen,
  (await import('./snapshot.spec.js')).snapshot,
  (await import('./diff.spec.js')).diff,
  (await import('./check.spec.js')).check,
  (await import('./servers.spec.js')).servers,
  (await import('./proxy.spec.js')).proxy,
  (await import('./attach.spec.js')).attach,
  (await import('./replay.spec.js')).replay,
  (await import('./mock.spec.js')).mock,
  (await import('./completion.spec.js')).completion,
  (await import('./demo.spec.js')).demo,
  (await import('./demo.spec.js')).demoServer,
];
