// Helpers for the benchmarks that measure the packed package as users get it: pack a source
// tree, install a tarball into an empty prefix with an empty cache, run `npx ./tarball`.
// Each cold run gets a fresh cache directory, so nothing is reused between runs.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

/** A fresh temporary directory under the OS tmpdir (the caller removes it). */
export const tempDir = (label) => mkdtempSync(join(tmpdir(), `mcpi-${label}-`));

/** The environment for npm and the installed command: no npm settings inherited from `npm run`. */
export function cleanEnv() {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  env.NO_COLOR = '1';
  return env;
}

/** Runs `npm pack` in `dir` (its prepack/prepare scripts included) and returns the tarball's path in `dest`. */
export function pack(dir, dest) {
  mkdirSync(dest, { recursive: true });
  execFileSync('npm', ['pack', '--pack-destination', dest, '--loglevel=error'], { cwd: dir, env: cleanEnv(), stdio: ['ignore', 'ignore', 'inherit'] });
  const tgz = readdirSync(dest).filter((f) => f.endsWith('.tgz'));
  if (tgz.length !== 1) throw new Error(`expected one tarball in ${dest}, got ${tgz.join(', ')}`);
  return join(dest, tgz[0]);
}

/** Wall time of a command in ms; throws with its stderr when it fails. */
export function timed(cmd, args, opts = {}) {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { env: cleanEnv(), encoding: 'utf8', ...opts });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal}):\n${r.stderr}`);
  return { ms, stdout: r.stdout };
}

/** KiB on disk under `path` (du -sk). */
export const diskKb = (path) => Number(execFileSync('du', ['-sk', path], { encoding: 'utf8' }).split('\t')[0]);

/** Every installed package under a node_modules directory (nested ones included). */
export function countPackages(nodeModules) {
  let n = 0;
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (!e.isDirectory() || e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (e.name.startsWith('@')) {
        walk(p);
        continue;
      }
      if (existsSync(join(p, 'package.json'))) n++;
      walk(join(p, 'node_modules'));
    }
  };
  walk(nodeModules);
  return n;
}

/**
 * Installs `tarball` into an empty prefix with an empty cache. Returns { ms, kb, packages,
 * prefix, bin }: wall time of `npm install`, du of the prefix's node_modules (the package and
 * everything it pulled), the number of packages there, and the installed command's path.
 */
export function coldInstall(tarball, work) {
  const prefix = join(work, 'prefix');
  const { ms } = timed('npm', ['install', '--prefix', prefix, '--cache', join(work, 'cache'), '--no-audit', '--no-fund', '--loglevel=error', tarball]);
  const nm = join(prefix, 'node_modules');
  return { ms, kb: diskKb(nm), packageKb: diskKb(join(nm, 'mcp-inspect')), packages: countPackages(nm), prefix, bin: join(nm, '.bin', 'mcp-inspect') };
}

/**
 * Wall time of `npx --yes ./<tarball> ...args` with an empty cache, run from the tarball's
 * directory (`npx /absolute/path.tgz` would run the path as a command; `./name.tgz` or
 * `file:/absolute/path.tgz` install it).
 */
export function coldNpx(tarball, work, args = ['--help']) {
  return timed('npx', ['--yes', '--cache', join(work, 'cache-npx'), `./${basename(tarball)}`, ...args], { cwd: dirname(tarball) }).ms;
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
