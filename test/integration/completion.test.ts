// `mcp-inspect completion bash|zsh|fish`: each script is sourced in its own shell and driven
// through that shell's completion hooks (bash: COMP_WORDS/COMP_CWORD and the function
// `complete -p` names; zsh: compinit's $_comps and the function with compadd stubbed; fish:
// `complete -C`). --server values come from a fresh HOME's Cursor config, through a
// `mcp-inspect` on PATH that runs the built CLI. A shell that is not installed is skipped
// (.ci/run installs zsh and fish when it can).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { removeTree } from '../helpers/files.js';
import { COMMANDS } from '../../src/cli/commands/index.js';

const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
for (const s of ['bash', 'zsh', 'fish']) if (!has(s)) console.warn(`completion test: ${s} is not installed; its test is skipped`);

let dir: string;
let env: NodeJS.ProcessEnv;
const scripts: Record<string, string> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcpi-completion-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'mcp-inspect'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'mcp-inspect'), 0o755);
  const home = join(dir, 'home');
  mkdirSync(join(home, '.cursor'), { recursive: true });
  writeFileSync(join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { alpha: { command: 'x' }, beta: { url: 'http://127.0.0.1:1/mcp' } } }));
  env = { PATH: `${bin}:${process.env.PATH}`, HOME: home, NO_COLOR: '1' };
  for (const shell of ['bash', 'zsh', 'fish']) {
    const r = await runCli(['completion', shell], { env: { HOME: home } });
    expect(r.code, r.stderr).toBe(0);
    scripts[shell] = join(dir, `completion.${shell}`);
    writeFileSync(scripts[shell], r.stdout);
  }
});

afterAll(() => removeTree(dir));

/** Runs `script` in `shell` from the empty temp folder; returns stdout lines. */
function run(shell: string, args: string[]): string[] {
  return execFileSync(shell, args, { cwd: dir, env, encoding: 'utf8', timeout: 30_000 }).trim().split('\n');
}

describe('completion scripts', () => {
  it('an unknown shell is a usage error', async () => {
    const r = await runCli(['completion', 'tcsh']);
    expect(r.code).toBe(64);
    expect(r.stderr).toMatch(/bash, zsh, fish/);
  });

  it.skipIf(!has('bash'))('bash: complete -p names the function; it completes commands, options, option values and server names', () => {
    const t = (...words: string[]) => `t ${words.map((w) => `'${w}'`).join(' ')}`;
    const out = run('bash', [
      '-c',
      [
        `source ${scripts.bash}`,
        'complete -p mcp-inspect',
        't(){ COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=(); _mcp_inspect; echo "${COMPREPLY[*]}"; }',
        t('mcp-inspect', 'to'),
        t('mcp-inspect', 'tools', '--sch'),
        t('mcp-inspect', 'tools', '--era', ''),
        t('mcp-inspect', 'call', '--server', ''),
        t('mcp-inspect', '--timeout', '5', 'li'),
        t('mcp-inspect', 'completion', ''),
        t('mcp-inspect', 'call', '-'),
      ].join('\n'),
    ]);
    expect(out.slice(0, 7)).toEqual([
      'complete -o default -F _mcp_inspect mcp-inspect',
      'tools',
      '--schema',
      'modern legacy',
      'alpha beta',
      'listen',
      'bash zsh fish',
    ]);
    expect(out[7].split(' ')).toEqual(expect.arrayContaining(['--output', '-o', '--server', '--transport', '--config-input', '--no-validate']));
  });

  it.skipIf(!has('zsh'))('zsh: compinit registers it; it completes commands, option values and server names', () => {
    const out = run('zsh', [
      '-fc',
      [
        'autoload -Uz compinit && compinit -u -D',
        `source ${scripts.zsh}`,
        'print -r -- "$_comps[mcp-inspect]"',
        // Outside a completion widget: compadd, _describe and _files print what they were given.
        'compadd() { [[ $1 == -- ]] && shift; print -r -- "$*" }',
        '_describe() { print -r -- "${(j: :)${(@)${(P)4}%%:*}}" }',
        '_files() { print files }',
        't() { words=("$@"); CURRENT=$#; _mcp_inspect }',
        't mcp-inspect to',
        't mcp-inspect tools --era ""',
        't mcp-inspect call --server ""',
        't mcp-inspect completion ""',
        't mcp-inspect call --output ""',
      ].join('\n'),
    ]);
    expect(out).toEqual([
      '_mcp_inspect',
      // every command of the registry, in its order
      COMMANDS.map((c) => c.name).join(' '),
      'modern legacy',
      'alpha beta',
      'bash zsh fish',
      'files',
    ]);
  });

  it.skipIf(!has('fish'))('fish: complete -C completes commands, option values and server names', () => {
    const names = (line: string) =>
      run('fish', ['-c', `source ${scripts.fish}; complete -C'${line}'`])
        .map((l) => l.split('\t')[0])
        .filter(Boolean);
    expect(names('mcp-inspect to')).toEqual(['tools']);
    expect(names('mcp-inspect tools --era ').sort()).toEqual(['legacy', 'modern']);
    expect(names('mcp-inspect call --server ').sort()).toEqual(['alpha', 'beta']);
    expect(names('mcp-inspect completion ').sort()).toEqual(['bash', 'fish', 'zsh']);
    expect(names('mcp-inspect tools --sch')).toEqual(['--schema']);
    expect(names('mcp-inspect --transport ').sort()).toEqual(['sse', 'streamable-http']);
  });
});
