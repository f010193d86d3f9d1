// The packed artifact of this checkout, for the tests of what users get (test/artifact/):
// `npm pack` as a checkout of the repository does it (its prepack builds), in a copy of the
// sources, so that the dist/ the other tests use is never rebuilt under them. A pack costs
// ~10 s of CPU (npm and the build); the files that need the tarball share one.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleDir, bundleKey } from './bundles.js';
import { removeTree } from './files.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** What `npm pack` reads from the checkout (the build's inputs and the package's files); node_modules is linked. */
const PACKED = ['package.json', 'package-lock.json', 'tsconfig.json', 'README.md', 'bin', 'scripts', 'src'];
/** A lock older than this (ms) was left by a worker that died while packing: it is taken over. */
const STALE_LOCK_MS = 10 * 60_000;

/** Every file under `path` (or `path` itself), relative to the checkout, sorted. */
function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [relative(ROOT, path)];
  return readdirSync(path)
    .sort()
    .flatMap((n) => filesUnder(join(path, n)));
}

/** Runs `npm args` in `cwd`; rejects with its stderr when it fails. */
function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    p.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    p.once('error', reject);
    p.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`npm ${args.join(' ')} failed (${code}):\n${stderr}`))));
  });
}

/**
 * The tarball `npm pack` makes of this checkout (`mcp-inspect-<version>.tgz`), packed in a
 * copy of the sources unless it is already there: it lives in a folder under the temp folder
 * named by a hash of every file the pack reads (see {@link PACKED}) and the lock file's
 * dependency tree, so a second test file, or a second run with the same sources, takes the
 * same tarball. A file that asks while another worker packs waits for that pack (a lock
 * folder beside it). Rejects when the pack fails or does not make exactly that one tarball.
 */
export async function packedTarball(): Promise<string> {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const name = `mcp-inspect-${version}.tgz`;
  const files = PACKED.flatMap((f) => filesUnder(join(ROOT, f)));
  const home = bundleDir('pack', bundleKey(ROOT, ...files.flatMap((f) => [f, readFileSync(join(ROOT, f))])));
  const tarball = join(home, name);
  const lock = `${home}.lock`;
  for (;;) {
    if (existsSync(tarball)) return tarball;
    try {
      mkdirSync(lock);
      break;
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      } catch {
        /* released meanwhile */
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const work = mkdtempSync(join(tmpdir(), 'mcpi-pack-work-'));
  try {
    if (existsSync(tarball)) return tarball;
    const src = join(work, 'src-copy');
    mkdirSync(src);
    for (const f of PACKED) cpSync(join(ROOT, f), join(src, f), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(src, 'node_modules'), 'dir');
    const out = join(work, 'out');
    mkdirSync(out);
    // As a user's shell would: node on PATH, no colors, no npm settings inherited from `npm test`.
    const env: NodeJS.ProcessEnv = {
      NO_COLOR: '1',
      PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
      HOME: work,
      TERM: process.env.TERM ?? 'xterm',
    };
    await npm(['pack', '--pack-destination', out, '--cache', join(work, 'cache')], src, env);
    const made = readdirSync(out).filter((f) => f.endsWith('.tgz'));
    if (made.length !== 1 || made[0] !== name) throw new Error(`npm pack made ${JSON.stringify(made)}, not ${name}`);
    mkdirSync(home, { recursive: true });
    renameSync(join(out, name), tarball);
    return tarball;
  } finally {
    removeTree(work);
    rmSync(lock, { recursive: true, force: true });
  }
}
