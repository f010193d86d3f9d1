/**
 * Issue 24.11: the README's CI recipe ("Use in CI"), run as written. The package is packed as
 * the recipe says (in a copy of the sources, as artifact.test.ts does), the tarball put in a
 * server project's `tools/`, and every command of the recipe — the `sh` block, then each
 * `run:` line of the workflow in order — is run with `sh -c` in that project, whose
 * `dist/server.js` is a real MCP server (mcp-inspect's demo server, started through the
 * installed package). npm runs offline with an empty cache: the tarball has no dependencies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeTree } from '../helpers/files.js';
import { packedTarball } from '../helpers/pack.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const dir = mkdtempSync(join(tmpdir(), 'mcpi-ci-recipe-'));
const project = join(dir, 'server-project');
const summary = join(dir, 'step-summary.md');

/** The README's "Use in CI" section: its `sh` commands and its workflow's `run:` lines, in order. */
function recipe(): { sh: string[]; runs: string[]; yaml: string } {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('### Use in CI');
  const section = readme.slice(start, readme.indexOf('\n## ', start));
  const block = (lang: string) => {
    const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section);
    expect(m, `a ${lang} block in "Use in CI"`).not.toBeNull();
    return m![1];
  };
  const sh = block('sh')
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l && !l.startsWith('#'));
  const yaml = block('yaml');
  const runs = [...yaml.matchAll(/^\s*(?:- )?run: (.+)$/gm)].map((m) => m[1].trim());
  return { sh, runs, yaml };
}

// As a CI runner's shell: node and npm on PATH, npm offline with its own cache, no colors.
const env: NodeJS.ProcessEnv = {
  PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
  HOME: dir,
  NO_COLOR: '1',
  CI: '1',
  GITHUB_STEP_SUMMARY: summary,
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  npm_config_cache: join(dir, 'npm-cache'),
  npm_config_loglevel: 'error',
};
/**
 * Runs `cmd args` and resolves with its status and output. Asynchronous on purpose: a
 * synchronous child blocks the test worker for a minute, and vitest's RPC with it times out.
 */
function exec(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    p.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    p.once('error', reject);
    p.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}
const sh = (line: string) => exec('sh', ['-c', line], { cwd: project, env });

beforeAll(async () => {
  // npm pack, as a checkout of the repository does it (its prepack builds), in a copy of the
  // sources (test/helpers/pack.ts: one pack shared with artifact.test.ts).
  const tarball = await packedTarball();
  // The server project: a package with a build, a lock file for `npm ci`, the tarball in tools/,
  // and dist/server.js, a real MCP server over stdio (the demo server of the installed package).
  mkdirSync(join(project, 'tools'), { recursive: true });
  mkdirSync(join(project, 'dist'));
  cpSync(tarball, join(project, 'tools', `mcp-inspect-${version}.tgz`));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'my-mcp-server', version: '1.0.0', private: true, type: 'module', scripts: { build: 'node -e "process.exit(0)"' } }, null, 2),
  );
  writeFileSync(
    join(project, 'dist', 'server.js'),
    `// The project's MCP server (stdio): here mcp-inspect's demo server, with lists that stay put.\n` +
      `process.argv.splice(2, 0, 'demo-server', '--change-every', '0');\n` +
      `await import('../node_modules/mcp-inspect/bin/mcp-inspect.js');\n`,
  );
  const lock = await sh('npm install --package-lock-only');
  expect(lock.status, lock.stderr).toBe(0);
}, 240_000);

afterAll(() => {
  removeTree(dir);
});

describe("the README's CI recipe, as written", () => {
  it('installs the packed tarball named in the recipe (the version of package.json), beside the npx lines', () => {
    const r = recipe();
    expect(r.sh[0]).toBe(`npm install --no-save ./tools/mcp-inspect-${version}.tgz`);
    expect(r.runs).toContain(`npm install --no-save ./tools/mcp-inspect-${version}.tgz`);
    expect(r.runs.filter((l) => l.startsWith('npx mcp-inspect ')).length).toBe(3);
  });

  it('every command runs: snapshot once, then the workflow (diff 0, check 0, the markdown summary)', { timeout: 600_000 }, async () => {
    const { sh: once, runs } = recipe();
    for (const line of once) {
      const r = await sh(line);
      expect(r.status, `${line}\n${r.stderr}`).toBe(0);
    }
    expect(JSON.parse(readFileSync(join(project, 'mcp-snapshot.json'), 'utf8')).server.name).toBe('mcp-inspect-demo');
    // A fresh checkout of the project: node_modules is gone before `npm ci`.
    rmSync(join(project, 'node_modules'), { recursive: true, force: true });
    for (const line of runs) {
      const r = await sh(line);
      expect(r.status, `${line}\n${r.stdout}\n${r.stderr}`).toBe(0);
    }
    expect(readdirSync(project)).toEqual(expect.arrayContaining(['mcp-diff.xml', 'mcp-check.xml']));
    expect(readFileSync(join(project, 'mcp-diff.xml'), 'utf8')).toContain('<testsuite');
    expect(existsSync(summary)).toBe(true);
    expect(readFileSync(summary, 'utf8')).toContain('MCP surface diff');
  });
});
