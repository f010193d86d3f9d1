/**
 * `mcp-inspect completion bash|zsh|fish`: prints a shell completion script generated from the
 * command registry (each command's options, their values, the commands themselves), so it
 * never drifts from the CLI. `--server` values come from the discovered configs at completion
 * time (`mcp-inspect servers --names`).
 */
import { Argument, Command, type Option } from 'commander';
import { UsageError } from '../../protocol/errors.js';
import type { CommandSpec } from '../command.js';
import { EXIT, exitCodesHelp } from '../exit.js';

/** The shells a script is generated for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** What a completion script knows of one option. */
export interface OptionModel {
  /** `--header` */
  long: string;
  /** `-o`, when it has one. */
  short?: string;
  description: string;
  /** What its value completes to: none (a flag), free text, files, a fixed list, or the discovered server names. */
  value: { kind: 'none' } | { kind: 'text' } | { kind: 'file' } | { kind: 'choices'; choices: string[] } | { kind: 'servers' };
}

/** What a completion script knows of one command (`name` '' is the root: the interactive inspector). */
export interface CommandModel {
  name: string;
  description: string;
  options: OptionModel[];
  /** The fixed values of its first operand (`completion bash|zsh|fish`), when it has such. */
  operands: string[];
}

/** Options whose value is a path. */
const FILE_OPTIONS = new Set(['--config', '--cwd', '--output']);

function optionModel(o: Option): OptionModel {
  const long = o.long ?? o.short ?? '';
  const takes = o.required || o.optional;
  const value: OptionModel['value'] = !takes
    ? { kind: 'none' }
    : o.argChoices?.length
      ? { kind: 'choices', choices: [...o.argChoices] }
      : long === '--server'
        ? { kind: 'servers' }
        : FILE_OPTIONS.has(long)
          ? { kind: 'file' }
          : { kind: 'text' };
  const m: OptionModel = { long, description: o.description, value };
  if (o.short && o.long) m.short = o.short;
  return m;
}

function commandModel(name: string, description: string, cmd: Command): CommandModel {
  const options = cmd.options.filter((o) => !o.hidden).map(optionModel);
  options.push({ long: '--help', short: '-h', description: 'show help', value: { kind: 'none' } });
  return { name, description, options, operands: [...(cmd.registeredArguments[0]?.argChoices ?? [])] };
}

/** The model of the whole CLI: the root first, then every command of `specs`, as commander declares them. */
export function cliModel(specs: readonly CommandSpec<never>[], root: CommandSpec<never>): CommandModel[] {
  const rootModel = commandModel('', root.description, root.configure(new Command('mcp-inspect')));
  rootModel.options.push({ long: '--version', short: '-V', description: 'print the version', value: { kind: 'none' } });
  return [rootModel, ...specs.map((s) => commandModel(s.name, s.description, s.configure(new Command(s.name))))];
}

const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Every option spelling that takes a value (to skip their values when looking for the command word). */
function valueSpellings(model: CommandModel[]): string[] {
  const out = new Set<string>();
  for (const c of model) for (const o of c.options) if (o.value.kind !== 'none') for (const s of [o.long, o.short]) if (s) out.add(s);
  return [...out].sort();
}

/** One case per option spelling that takes a value: how to complete that value (the same option means the same thing in every command). */
function valueCases(model: CommandModel[]): Map<string, OptionModel['value']> {
  const out = new Map<string, OptionModel['value']>();
  for (const c of model) for (const o of c.options) for (const s of [o.long, o.short]) if (s && o.value.kind !== 'none' && !out.has(s)) out.set(s, o.value);
  return out;
}

const SERVER_NAMES = 'mcp-inspect servers --names 2>/dev/null';

function bash(model: CommandModel[]): string {
  const commands = model.filter((c) => c.name).map((c) => c.name);
  const cases = [...valueCases(model)]
    .map(([spelling, v]) => {
      const body =
        v.kind === 'choices'
          ? `COMPREPLY=($(compgen -W ${sq(v.choices.join(' '))} -- "$cur"))`
          : v.kind === 'servers'
            ? `COMPREPLY=($(compgen -W "$(${SERVER_NAMES})" -- "$cur"))`
            : v.kind === 'file'
              ? 'COMPREPLY=($(compgen -f -- "$cur"))'
              : 'COMPREPLY=()';
      return `    ${spelling}) ${body}; return 0 ;;`;
    })
    .join('\n');
  const perCommand = model
    .map((c) => {
      const words = [...c.options.flatMap((o) => [o.long, ...(o.short ? [o.short] : [])]), ...(c.name ? [] : commands)].join(' ');
      return `    ${c.name ? sq(c.name) : "''"}) opts=${sq(words)}; operands=${sq(c.operands.join(' '))} ;;`;
    })
    .join('\n');
  return `# mcp-inspect completion for bash (generated by: mcp-inspect completion bash)
# Install: echo 'source <(mcp-inspect completion bash)' >> ~/.bashrc
_mcp_inspect() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" cmd="" i w opts="" operands=""
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  for (( i = 1; i < COMP_CWORD; i++ )); do
    w="\${COMP_WORDS[i]}"
    case "$w" in
      --) return 0 ;;
      ${valueSpellings(model).join('|')}) (( i++ )) ;;
      -*) ;;
      *) [[ -z "$cmd" ]] && cmd="$w" ;;
    esac
  done
  case "$prev" in
${cases}
  esac
  case "$cmd" in
${perCommand}
    *) opts='--help' ;;
  esac
  if [[ "$cur" != -* && -n "$operands" ]]; then
    COMPREPLY=($(compgen -W "$operands" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  fi
}
complete -o default -F _mcp_inspect mcp-inspect
`;
}

function zsh(model: CommandModel[]): string {
  const commands = model.filter((c) => c.name);
  const cases = [...valueCases(model)]
    .map(([spelling, v]) => {
      const body =
        v.kind === 'choices'
          ? `compadd -- ${v.choices.map(sq).join(' ')}`
          : v.kind === 'servers'
            ? `compadd -- \${(f)"$(${SERVER_NAMES})"}`
            : v.kind === 'file'
              ? '_files'
              : ':';
      return `    ${spelling}) ${body}; return ;;`;
    })
    .join('\n');
  const perCommand = model
    .map((c) => {
      const opts = c.options.flatMap((o) => [o.long, ...(o.short ? [o.short] : [])]).map(sq);
      return `    ${c.name ? sq(c.name) : "''"}) opts=(${opts.join(' ')}); operands=(${c.operands.map(sq).join(' ')}) ;;`;
    })
    .join('\n');
  const described = commands.map((c) => sq(`${c.name}:${oneLine(c.description).replace(/:/g, '\\:')}`)).join(' ');
  return `#compdef mcp-inspect
# mcp-inspect completion for zsh (generated by: mcp-inspect completion zsh)
# Install: echo 'source <(mcp-inspect completion zsh)' >> ~/.zshrc   (after compinit)
_mcp_inspect() {
  local cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}" cmd="" w
  local -a opts operands
  local -i i
  for (( i = 2; i < CURRENT; i++ )); do
    w="\${words[i]}"
    case "$w" in
      --) return ;;
      ${valueSpellings(model).join('|')}) (( i++ )) ;;
      -*) ;;
      *) [[ -z "$cmd" ]] && cmd="$w" ;;
    esac
  done
  case "$prev" in
${cases}
  esac
  case "$cmd" in
${perCommand}
    *) opts=(--help) ;;
  esac
  if [[ "$cur" != -* && -z "$cmd" ]]; then
    local -a cmds; cmds=(${described})
    _describe -t commands 'mcp-inspect command' cmds
  elif [[ "$cur" != -* && \${#operands} -gt 0 ]]; then
    compadd -- $operands
  else
    compadd -- $opts
  fi
}
compdef _mcp_inspect mcp-inspect
`;
}

function fish(model: CommandModel[]): string {
  const commands = model.filter((c) => c.name);
  const lines = [
    '# mcp-inspect completion for fish (generated by: mcp-inspect completion fish)',
    '# Install: mcp-inspect completion fish > ~/.config/fish/completions/mcp-inspect.fish',
    'complete -c mcp-inspect -f',
    ...commands.map((c) => `complete -c mcp-inspect -n __fish_use_subcommand -a ${sq(c.name)} -d ${sq(oneLine(c.description))}`),
  ];
  for (const c of model) {
    const cond = c.name ? `'__fish_seen_subcommand_from ${c.name}'` : '__fish_use_subcommand';
    for (const o of c.options) {
      const parts = [`complete -c mcp-inspect -n ${cond}`, `-l ${o.long.replace(/^--/, '')}`];
      if (o.short) parts.push(`-s ${o.short.replace(/^-/, '')}`);
      const v = o.value;
      if (v.kind === 'choices') parts.push(`-x -a ${sq(v.choices.join(' '))}`);
      else if (v.kind === 'servers') parts.push(`-x -a ${sq(`(${SERVER_NAMES})`)}`);
      else if (v.kind === 'file') parts.push('-r -F');
      else if (v.kind === 'text') parts.push('-x');
      parts.push(`-d ${sq(oneLine(o.description))}`);
      lines.push(parts.join(' '));
    }
    if (c.operands.length) lines.push(`complete -c mcp-inspect -n ${cond} -a ${sq(c.operands.join(' '))}`);
  }
  return lines.join('\n') + '\n';
}

/** The completion script for `shell`, from the model. */
export function completionScript(shell: Shell, model: CommandModel[]): string {
  return shell === 'bash' ? bash(model) : shell === 'zsh' ? zsh(model) : fish(model);
}

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
  run: async (_inv, words) => {
    const shell = words[0] as Shell;
    if (!(SHELLS as readonly string[]).includes(shell)) throw new UsageError(`completion: unknown shell ${JSON.stringify(shell)} (bash, zsh or fish)`);
    const [{ COMMANDS }, { tuiCommand }, { writeOut }] = await Promise.all([import('./index.js'), import('./tui.js'), import('../stdout.js')]);
    const root = tuiCommand(COMMANDS.map((c) => c.name)) as unknown as CommandSpec<never>;
    writeOut(completionScript(shell, cliModel(COMMANDS, root)));
    return EXIT.ok;
  },
};
