// The early spawn (src/cli/early.ts, src/transport/held-child.ts): which command lines it
// takes, that the stdio transport of the same command line takes its process over (with what
// the server wrote meanwhile), and that a process nobody took is stopped.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { SPAWNS_FIRST, spawnTargetEarly } from '../../src/cli/early.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { loadSpec } from '../../src/cli/command.js';
import { resolveTarget } from '../../src/cli/target.js';
import { discardEarlyChild, takeEarlyChild } from '../../src/transport/held-child.js';
import { spawnEnv } from '../../src/transport/spawn-env.js';
import { stdioTransport } from '../../src/transport/stdio.js';
import { pidAlive } from '../helpers/servers.js';

/** The transport main() would make for the command line after `--`. */
async function transportOf(command: string[]) {
  const target = await resolveTarget(undefined, command, {});
  if (target.kind !== 'stdio') throw new Error('not a stdio target');
  return stdioTransport(target);
}

const NODE = process.execPath;
const IDLE = ['-e', 'setInterval(() => {}, 1000)'];

/** The pid of the process waiting in the early slot, if any (the slot is the process's: see held-child.ts). */
function earlyPid(): number | undefined {
  const slot = (globalThis as Record<symbol, { pending?: { child: { proc: { pid?: number } } } } | undefined>)[Symbol.for('mcp-inspect.early-child')];
  return slot?.pending?.child.proc.pid;
}

describe('which command lines are spawned early', () => {
  it.each([
    [['tools', '--', NODE, ...IDLE]],
    [['tools', '--json', '--quiet', '--schema', '--verbose', '--trace', '--no-color', '--', NODE, ...IDLE]],
    [['discover', '--json', '--', NODE, ...IDLE]],
  ])('%j: spawned', (argv) => {
    expect(spawnTargetEarly(argv)).toBe(true);
    const pid = earlyPid()!;
    expect(pid).toBeGreaterThan(0);
    discardEarlyChild();
    expect(earlyPid()).toBeUndefined();
  });

  it.each([
    [['tools']],
    [['tools', '--']],
    [['--json', 'tools', '--', NODE]],
    [['tools', '--env', 'A=1', '--', NODE]],
    [['tools', '--inherit-env', '--', NODE]],
    [['tools', '--cwd', '/', '--', NODE]],
    [['tools', '--help', '--', NODE]],
    [['tools', '--schema=1', '--', NODE]],
    [['tools', 'http://127.0.0.1:1/mcp', '--', NODE]],
    [['discover', '--schema', '--', NODE]],
    [['call', 'echo', '--', NODE]],
    [['listen', '--', NODE]],
    [['--', NODE]],
  ])('%j: left to main()', (argv) => {
    expect(spawnTargetEarly(argv)).toBe(false);
    expect(earlyPid()).toBeUndefined();
  });

  it('each command of the table is in the registry, and every flag it allows is an option of that command', async () => {
    for (const [name, own] of Object.entries(SPAWNS_FIRST)) {
      const entry = COMMANDS.find((c) => c.name === name);
      expect(entry, name).toBeDefined();
      const cmd = (await loadSpec(entry!)).configure(new Command(name));
      const longs = cmd.options.map((o) => o.long);
      for (const flag of [...own, '--json', '--quiet', '--verbose', '--trace', '--no-color']) expect(longs, `${name} ${flag}`).toContain(flag);
    }
  });
});

describe('the stdio transport takes the early process over', () => {
  it('when its command line is the same: the same process, and what it wrote meanwhile', async () => {
    const command = [NODE, '-e', "process.stderr.write('hello from early\\n'); process.exit(4)"];
    expect(spawnTargetEarly(['tools', '--', ...command])).toBe(true);
    const pid = earlyPid()!;
    await expect.poll(() => !pidAlive(pid), { timeout: 20_000 }).toBe(true);
    const t = await transportOf(command);
    t.prespawn();
    expect(t.pid).toBe(pid);
    expect(earlyPid()).toBeUndefined();
    const stderr: string[] = [];
    const closed = new Promise<string>((resolve) => t.setHooks({ onStderr: (l) => stderr.push(l), onClose: resolve }));
    await t.start();
    expect(await closed).toBe('the server process exited with code 4');
    expect(stderr).toEqual(['hello from early']);
    await t.close();
  });

  it('a command that cannot start: the transport reports it as its own spawn would', async () => {
    expect(spawnTargetEarly(['tools', '--', 'mcpi-no-such-command-xyz'])).toBe(true);
    const t = await transportOf(['mcpi-no-such-command-xyz']);
    await expect(t.start()).rejects.toThrow('cannot start the server: command not found: mcpi-no-such-command-xyz');
    await t.close();
  });

  it('when it differs (another environment): the early process is stopped and the transport spawns its own', async () => {
    expect(spawnTargetEarly(['tools', '--', NODE, ...IDLE])).toBe(true);
    const pid = earlyPid()!;
    expect(takeEarlyChild({ command: NODE, args: IDLE, env: { ...spawnEnv(), API_KEY: 'k' } })).toBeUndefined();
    expect(earlyPid()).toBeUndefined();
    await expect.poll(() => !pidAlive(pid), { timeout: 20_000 }).toBe(true);
  });

  it('nobody takes it: discardEarlyChild() (the exit of the process) stops it', async () => {
    expect(spawnTargetEarly(['discover', '--', NODE, ...IDLE])).toBe(true);
    const pid = earlyPid()!;
    discardEarlyChild();
    await expect.poll(() => !pidAlive(pid), { timeout: 20_000 }).toBe(true);
  });
});
