import { readFileSync } from 'node:fs';
// The exit codes of the real binary, one per kind, from the one map in src/cli/exit.ts:
// usage 64, transport 3, JSON-RPC error 2, tool error 1, a connect cancelled by a signal
// 129/130/143; every --help prints the table generated from that module; --version and
// --help load neither the client nor Ink.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BIN, describeResult, killAllClis, leftoverPids, ownStderr, runCli, stackLines, startCli, type CliResult } from '../helpers/cli.js';
import { fixturePath, stopAllFixtures } from '../helpers/servers.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { EXIT, exitCodesHelp } from '../../src/cli/exit.js';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const node = process.execPath;
const FINDINGS = ['--', node, fixturePath('faults/stdio-outputs')];
const SILENT = ['--', node, fixturePath('faults/stdio-silent')];

afterEach(async () => {
  await killAllClis();
});

afterAll(async () => {
  await stopAllFixtures();
  expect(leftoverPids()).toEqual([]);
});

function exits(r: CliResult, code: number): void {
  expect(r.code, describeResult(r)).toBe(code);
  expect(r.timedOut).toBe(false);
  expect(r.orphans).toEqual([]);
  expect(stackLines(r.stderr), 'no stack trace').toEqual([]);
}

describe('one exit code per kind', () => {
  it('usage error: 64, also as a JSON error document with code MCPI_USAGE', async () => {
    const r = await runCli(['tools', '--json']);
    exits(r, EXIT.usage);
    expect(JSON.parse(r.stdout)).toEqual({
      error: { kind: 'usage', message: expect.stringMatching(/^no server given/), exitCode: 64, code: 'MCPI_USAGE' },
      findings: [],
    });
    const unknown = await runCli(['bogus']);
    exits(unknown, EXIT.usage);
    // The unknown-command message lists the registry.
    expect(unknown.stderr).toContain(`(commands: ${COMMANDS.map((c) => c.name).join(', ')})`);
  });

  it('transport failure: 3 (nothing listens there)', async () => {
    const r = await runCli(['tools', 'http://127.0.0.1:1/mcp', '--json']);
    exits(r, EXIT.transport);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { kind: 'transport', exitCode: 3, code: 'MCPI_CONNECT' }, findings: [] });
  });

  it('the server answers with a JSON-RPC error: 2, with the code and data', async () => {
    const r = await runCli(['call', 'rpc_fail', '--quiet', ...FINDINGS]);
    exits(r, EXIT.rpc);
    expect(ownStderr(r.stderr)).toMatch(/^mcp-inspect: the server answered tools\/call with error -32000: refused on purpose$/m);
    const j = await runCli(['call', 'rpc_fail', '--json', '--quiet', ...FINDINGS]);
    exits(j, EXIT.rpc);
    expect(JSON.parse(j.stdout)).toMatchObject({ error: { kind: 'rpc', exitCode: 2, code: -32000, data: { why: 'on purpose' } } });
  });

  it('the tool returns isError: true: 1', async () => {
    exits(await runCli(['call', 'error_shaped', '--quiet', ...FINDINGS]), EXIT.toolError);
  });

  it('a connect cancelled by SIGINT exits 130 ("interrupted"), SIGTERM 143, SIGHUP 129; the server is stopped', async () => {
    for (const [sig, code, said] of [
      ['SIGINT', 130, 'interrupted'],
      ['SIGTERM', 143, 'interrupted by SIGTERM'],
      ['SIGHUP', 129, 'interrupted by SIGHUP'],
    ] as const) {
      const cli = startCli(['tools', '--json', ...SILENT]);
      // The silent server is up and the CLI is waiting for its answer to server/discover.
      await cli.waitFor(/SILENT \d+/, { stream: 'stderr' });
      cli.kill(sig);
      const r = await cli.done;
      exits(r, code);
      expect(ownStderr(r.stderr)).toMatch(new RegExp(`^mcp-inspect: ${said}$`, 'm'));
      expect(JSON.parse(r.stdout)).toMatchObject({ error: { kind: 'cancelled', exitCode: code, code: 'MCPI_CANCELLED', signal: sig }, findings: [] });
      expect(r.descendants.length).toBeGreaterThan(0);
    }
  });
});

describe('a server that does not offer resources or prompts (no such capability): the plain sentence, still exit 2', () => {
  // Real SDK servers that declare tools and logging only: v2 modern over stdio, v1 legacy over stdio.
  const SERVERS = [
    ['modern-fixture', ['--', node, fixturePath('modern-server'), '--stdio']],
    ['legacy-fixture', ['--', node, fixturePath('legacy-server'), '--stdio']],
  ] as const;

  // Six CLI runs, each starting an SDK server: over 30 s at load 30 (as the --help test below).
  it.each(SERVERS)('%s', { timeout: 120_000 }, async (name, target) => {
    const cases = [
      [['resources'], 'resources', 'resources/list'],
      [['resources', 'templates'], 'resources', 'resources/templates/list'],
      [['resources', 'read', 'x://nothing'], 'resources', 'resources/read'],
      [['prompts'], 'prompts', 'prompts/list'],
      [['prompts', 'get', 'greeting'], 'prompts', 'prompts/get'],
    ] as const;
    for (const [words, capability, method] of cases) {
      const r = await runCli([...words, '--quiet', ...target]);
      exits(r, EXIT.rpc);
      expect(ownStderr(r.stderr)).toBe(
        `mcp-inspect: ${name} does not offer ${capability} (no \`${capability}\` capability); it answered ${method} with error -32601: Method not found\n`,
      );
    }
    const j = await runCli(['resources', '--json', '--quiet', ...target]);
    exits(j, EXIT.rpc);
    expect(JSON.parse(j.stdout)).toEqual({
      error: {
        kind: 'rpc',
        message: `${name} does not offer resources (no \`resources\` capability)`,
        exitCode: 2,
        code: -32601,
        data: null,
        capability: 'resources',
        method: 'resources/list',
        serverMessage: 'Method not found',
      },
      findings: [],
    });
  });
});

describe('the table in --help is generated from src/cli/exit.ts', () => {
  it('the root and every command of the registry end their help with it', async () => {
    for (const args of [['--help'], ...COMMANDS.map((c) => [c.name, '--help'])]) {
      const r = await runCli(args);
      exits(r, 0);
      expect(r.stdout.trimEnd().endsWith(exitCodesHelp()), args.join(' ')).toBe(true);
    }
    // One CLI start per command (22 of them): over 30 s at a load of 24.
  }, 180_000);
});

describe('lazy loading', () => {
  // dist/ is a bundle: a loaded chunk is mapped back to the sources in it by esbuild's
  // metafile (dist/meta.json, written by every build).
  const HEAVY = /^src\/(client|transport|tui|schema\/validate)\/|^node_modules\/(undici|ink|react|ajv|diff)\//;
  const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
  const meta = JSON.parse(readFileSync(`${dist}meta.json`, 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  const sourcesOf = (file: string) => Object.keys(meta.outputs[`dist/${file.slice(dist.length)}`]?.inputs ?? {});
  const loaded = (args: string[]) => {
    const r = spawnSync(node, ['--import', fileURLToPath(new URL('../helpers/import-trace.mjs', import.meta.url)), BIN, ...args], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    const files = [
      ...new Set(
        r.stderr
          .split('\n')
          .filter((l) => l.startsWith('LOADED '))
          .map((l) => l.slice(7))
          .map((m) => (m.startsWith('file:') ? fileURLToPath(m) : m)),
      ),
    ];
    return { files, sources: files.filter((f) => f.startsWith(dist)).flatMap(sourcesOf) };
  };

  it('--version (and -V) alone is answered before the bundle loads: no dist/ file, so no commander', () => {
    for (const args of [['--version'], ['-V']]) {
      const { files } = loaded(args);
      expect(
        files.some((m) => m.endsWith('/bin/mcp-inspect.js')),
        'the trace works',
      ).toBe(true);
      expect(
        files.filter((f) => f.startsWith(dist)),
        args.join(' '),
      ).toEqual([]);
    }
  });

  it("--help and a command's --help load neither the client, undici, Ajv nor Ink/React", () => {
    for (const args of [['--help'], ['call', '--help'], ['listen', '--help']]) {
      const { files, sources } = loaded(args);
      expect(files.some((m) => m.endsWith('/dist/cli/main.js')) && sources.includes('src/cli/main.ts'), 'the trace works').toBe(true);
      expect(
        sources.filter((m) => HEAVY.test(m)),
        args.join(' '),
      ).toEqual([]);
    }
  });

  it("tools loads only its own spec and body: neither the other commands' specs or bodies, Ajv, the OAuth client, the demo server nor the TUI", () => {
    for (const args of [
      ['tools', '--quiet', ...FINDINGS],
      ['--json', '--quiet', 'tools', ...FINDINGS],
    ]) {
      const { sources } = loaded(args);
      expect(sources, 'the trace works').toContain('src/cli/commands/tools.ts');
      expect(sources, 'the trace works').toContain('src/cli/commands/tools.spec.ts');
      expect(
        sources.filter((m) =>
          /^src\/(tui|demo|auth|schema\/validate)\/|^src\/schema\/validate|^src\/cli\/commands\/(?!tools\.|index\.|tui\.)|(^|\/)node_modules\/(ajv|oauth4webapi|ink|react)\//.test(
            m,
          ),
        ),
        args.join(' '),
      ).toEqual([]);
    }
  });

  it('the root --help loads every spec (it lists every command with its summary); a command --help only its own', () => {
    const specs = (args: string[]) => loaded(args).sources.filter((m) => /^src\/cli\/commands\/.*\.spec\.ts$/.test(m));
    expect(new Set(specs(['--help'])).size).toBe(new Set(COMMANDS.map((c) => c.name.replace('demo-server', 'demo'))).size);
    expect(specs(['call', '--help'])).toEqual(['src/cli/commands/call.spec.ts']);
  });

  it('a command that talks to a server does load the client (the trace sees it)', () => {
    expect(loaded(['tools', '--quiet', ...FINDINGS]).sources).toContain('src/client/client.ts');
  });

  it('tools loads a handful of dist/ files, not one per shared module (scripts/rechunk.mjs merges the start-up path)', () => {
    // esbuild alone made 58 (48 before the spawn); main, the spec, the body, stdio, the client and a few lone chunks now.
    const { files } = loaded(['tools', '--quiet', ...FINDINGS]);
    const dists = files.filter((f) => f.startsWith(dist));
    expect(dists, 'the trace works').toContain(`${dist}cli/main.js`);
    expect(dists.length, dists.join('\n')).toBeLessThanOrEqual(12);
  });
});
