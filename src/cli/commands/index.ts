/**
 * The registry: every command of mcp-inspect, in the order `--help` lists them. Adding a
 * command is its module (a CommandSpec, see src/cli/command.ts) plus its line here: its name
 * and the import of its spec. A line costs nothing until its command is chosen: main.ts loads
 * only the chosen command's spec (all of them for the root's `--help` and for `completion`).
 */
import type { CommandEntry } from '../command.js';

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'discover', load: async () => (await import('./discover.spec.js')).discover },
  { name: 'tools', load: async () => (await import('./tools.spec.js')).tools },
  { name: 'call', load: async () => (await import('./call.spec.js')).call },
  { name: 'request', load: async () => (await import('./request.spec.js')).request },
  { name: 'load', load: async () => (await import('./load.spec.js')).load },
  { name: 'run', load: async () => (await import('./run.spec.js')).run },
  { name: 'tasks', load: async () => (await import('./tasks.spec.js')).tasks },
  { name: 'auth', load: async () => (await import('./auth.spec.js')).auth },
  { name: 'resources', load: async () => (await import('./resources.spec.js')).resources },
  { name: 'prompts', load: async () => (await import('./prompts.spec.js')).prompts },
  { name: 'listen', load: async () => (await import('./listen.spec.js')).listen },
  { name: 'snapshot', load: async () => (await import('./snapshot.spec.js')).snapshot },
  { name: 'diff', load: async () => (await import('./diff.spec.js')).diff },
  { name: 'check', load: async () => (await import('./check.spec.js')).check },
  { name: 'servers', load: async () => (await import('./servers.spec.js')).servers },
  { name: 'proxy', load: async () => (await import('./proxy.spec.js')).proxy },
  { name: 'attach', load: async () => (await import('./attach.spec.js')).attach },
  { name: 'replay', load: async () => (await import('./replay.spec.js')).replay },
  { name: 'mock', load: async () => (await import('./mock.spec.js')).mock },
  { name: 'completion', load: async () => (await import('./completion.spec.js')).completion },
  { name: 'demo', load: async () => (await import('./demo.spec.js')).demo },
  { name: 'demo-server', load: async () => (await import('./demo.spec.js')).demoServer },
];
