/**
 * The artifact users get: `npm pack` (its prepack build, run in a copy of the sources so the
 * dist/ the other tests use is never rebuilt under them), the tarball installed into an
 * empty prefix with an empty cache and no network, then the installed command run as a user
 * runs it: `--version`, `tools` against its own demo server over stdio and HTTP, the TUI's
 * first frame in tmux, and `npx ./tarball --help`. Fails when the installed package passes
 * the size budget or has a dependency to install.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HAS_TMUX, shellWord, tmuxServer } from '../helpers/tmux.js';
import { removeTree } from '../helpers/files.js';
import { packedTarball } from '../helpers/pack.js';

/** Installed size budget of the package (du of node_modules/mcp-inspect), in KiB: 5 MB. */
const BUDGET_KB = 5 * 1024;

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const dir = mkdtempSync(join(tmpdir(), 'mcpi-artifact-'));
const prefix = join(dir, 'prefix');
const installed = join(prefix, 'node_modules', 'mcp-inspect');
const bin = join(prefix, 'node_modules', '.bin', 'mcp-inspect');
let tarball = '';

// As a user's shell would: node on PATH, no colors, no npm settings inherited from `npm test`.
const env: NodeJS.ProcessEnv = {
  NO_COLOR: '1',
  PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
  HOME: process.env.HOME,
  TERM: process.env.TERM ?? 'xterm',
};
const run = (cmd: string, args: string[], cwd = dir) => execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const npm = (args: string[], cwd = dir) => run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], cwd);

const servers = new Set<ChildProcess>();
const term = tmuxServer('artifact');

beforeAll(async () => {
  // `npm pack` in a copy of the sources (test/helpers/pack.ts: one pack shared with ci-recipe.test.ts).
  // A copy in this test's folder: npx is given it by a relative path (./out/…).
  const packed = await packedTarball();
  expect(basename(packed)).toBe(`mcp-inspect-${version}.tgz`);
  mkdirSync(join(dir, 'out'));
  tarball = join(dir, 'out', basename(packed));
  cpSync(packed, tarball);
  // --offline: a runtime dependency would have to come from the registry, and fails here.
  npm(['install', '--prefix', prefix, '--cache', join(dir, 'cache-install'), '--offline', tarball]);
}, 180_000);

afterAll(async () => {
  for (const s of servers) s.kill('SIGKILL');
  term.kill();
  removeTree(dir);
});

describe('the packed artifact, installed from its tarball', () => {
  it('has no dependencies: the install is the package alone', () => {
    const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    for (const k of ['dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies']) expect(pkg[k], k).toBeUndefined();
    expect(readdirSync(join(prefix, 'node_modules')).filter((f) => !f.startsWith('.'))).toEqual(['mcp-inspect']);
    // No install-time script: installing never builds.
    const scripts = (pkg.scripts ?? {}) as Record<string, string>;
    for (const k of ['preinstall', 'install', 'postinstall', 'prepare']) expect(scripts[k], k).toBeUndefined();
    expect(existsSync(join(installed, 'THIRD_PARTY_LICENSES'))).toBe(true);
    expect(existsSync(join(installed, 'src'))).toBe(false);
  });

  it(`fits the size budget (${BUDGET_KB / 1024} MB installed)`, () => {
    const kb = Number(run('du', ['-sk', installed]).split('\t')[0]);
    expect(kb).toBeGreaterThan(0);
    expect(kb, `installed size ${kb} KiB`).toBeLessThanOrEqual(BUDGET_KB);
  });

  it('--version prints the version', () => {
    expect(run(bin, ['--version']).trim()).toBe(version);
  });

  it('tools against its own demo server over stdio', () => {
    const out = run(bin, ['tools', '--quiet', '--', bin, 'demo-server', '--change-every', '0']);
    expect(out).toMatch(/^echo /m);
    expect(out).toMatch(/^add /m);
  });

  it('tools against its own demo server over HTTP', async () => {
    const server = spawn(bin, ['demo-server', '--http', '0', '--change-every', '0'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    servers.add(server);
    const exited = new Promise<void>((r) => server.once('exit', () => r()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let seen = '';
        const onData = (b: Buffer) => {
          seen += b.toString();
          const m = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(seen);
          if (m) resolve(m[0]);
        };
        server.stdout.on('data', onData);
        server.stderr.on('data', onData);
        server.once('exit', (code) => reject(new Error(`demo-server exited (${code}) before listening:\n${seen}`)));
      });
      const out = JSON.parse(run(bin, ['tools', '--json', url])) as { tools: Array<{ name: string }> };
      expect(out.tools.map((t) => t.name)).toContain('echo');
      const discover = run(bin, ['discover', url]);
      expect(discover).toContain(`mcp-inspect-demo ${version}`);
    } finally {
      server.kill('SIGTERM');
      await exited;
      servers.delete(server);
    }
  });

  it('npx ./tarball --help works with an empty cache (an absolute path would be run as a command)', () => {
    const out = run('npx', ['--yes', '--offline', '--cache', join(dir, 'cache-npx'), `./${join('out', tarball.split(/[\\/]/).pop()!)}`, '--help']);
    expect(out).toContain('Usage: mcp-inspect');
  });

  it.skipIf(!HAS_TMUX)('the TUI draws its first frame in a terminal (tmux) and quits with 0', { timeout: 60_000 }, async () => {
    // No target: the interactive inspector on the built-in demo server (HTTP, in-process).
    const tui = term.start({ session: 'tui', cols: 100, rows: 30, cwd: dir, command: `env NO_COLOR=1 CI=1 ${shellWord(bin)}`, waitMs: 20_000 });
    const s = await tui.waitForScreen((x) => x.includes('connected') && /Tools \([1-9]\d*\)/.test(x) && x.includes('Echo (echo)'), 'the tool list');
    expect(s).toContain(`mcp-inspect demo server ${version}`);
    tui.keys('q');
    expect(await tui.exitCode(20_000)).toBe('0');
  });
});
