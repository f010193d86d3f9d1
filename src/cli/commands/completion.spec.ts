/**
 * The registry entry of `completion`: name, summary, options and help (cheap: it loads for
 * `--help` and for every other command); the body, ./completion.ts, is imported when it runs.
 */
import { Argument } from 'commander';
import { UsageError } from '../../protocol/errors.js';
import type { CommandSpec } from '../command.js';
import { exitCodesHelp } from '../exit.js';

/** The shells a script is generated for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** `mcp-inspect completion <shell>`. */
export const completion: CommandSpec<Record<string, never>> = {
  name: 'completion',
  description: 'print a shell completion script (bash, zsh or fish)',
  configure: (cmd) =>
    cmd.addArgument(new Argument('<shell>', 'the shell').choices([...SHELLS])).addHelpText(
      'after',
      `
Install (one line):
  bash  echo 'source <(mcp-inspect completion bash)' >> ~/.bashrc
  zsh   echo 'source <(mcp-inspect completion zsh)' >> ~/.zshrc      (after compinit)
  fish  mcp-inspect completion fish > ~/.config/fish/completions/mcp-inspect.fish

--server completes the names of the servers in your MCP configs (mcp-inspect servers).

${exitCodesHelp()}`,
    ),
  run: async (inv, words, flags) => {
    const shell = words[0];
    if (!(SHELLS as readonly string[]).includes(shell ?? '')) throw new UsageError(`completion: unknown shell ${JSON.stringify(shell)} (bash, zsh or fish)`);
    return (await import('./completion.js')).completionBody(inv, words, flags);
  },
};
