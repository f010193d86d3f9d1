/**
 * The one exit-code map (src/cli/exit.ts) and the error model (src/protocol/errors.ts):
 * kinds → codes, the documented table (help text and README generated from / checked against
 * it), one describeError, and the --json error document with its findings.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AuthError, AuthRequiredError } from '../../src/auth/errors.js';
import { EXIT, EXIT_TABLE, KIND_EXIT, exitCodeFor, exitCodeOf, exitCodesHelp, explainFailure } from '../../src/cli/exit.js';
import { McpError, TransportError, UsageError, describeError, errorKind } from '../../src/protocol/errors.js';
import { errorDocument } from '../../src/cli/output.js';
import { FindingLog } from '../../src/cli/findings.js';
import type { Finding } from '../../src/check/types.js';

const rpc = new McpError({ code: -32601, message: 'Method not found', data: { hint: 'x' } }, undefined, 'subscriptions/listen');
const timeout = new TransportError('MCPI_TIMEOUT', 'no answer to tools/list within 500 ms', { detail: 'nothing came' });
const cancelled = new TransportError('MCPI_CANCELLED', 'cancelled');
const abort = Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
const dup: Finding = {
  rule: 'tools.duplicate-name',
  severity: 'error',
  spec: 'server/tools#tool',
  key: 'echo',
  message: 'the server lists more than one tool named "echo"',
};

describe('error kinds and codes', () => {
  it('every error has a kind and a stable code; McpError keeps its JSON-RPC number', () => {
    expect([new UsageError('x').kind, new UsageError('x').code]).toEqual(['usage', 'MCPI_USAGE']);
    expect([rpc.kind, rpc.rpcCode, rpc.code]).toEqual(['rpc', -32601, -32601]);
    expect([timeout.kind, timeout.code]).toEqual(['transport', 'MCPI_TIMEOUT']);
    expect([cancelled.kind, cancelled.code]).toEqual(['cancelled', 'MCPI_CANCELLED']);
    expect(errorKind(abort)).toBe('cancelled');
    expect(errorKind(new TypeError('oops'))).toBe('internal');
    expect(errorKind('a string')).toBe('internal');
  });

  it('kinds map to the documented exit codes, the same for the CLI and the TUI', () => {
    expect(exitCodeFor(new UsageError('x'))).toBe(64);
    expect(exitCodeFor(rpc)).toBe(2);
    expect(exitCodeFor(timeout)).toBe(3);
    // A challenge nothing could answer, and every OAuth failure: authorization required (4).
    expect(exitCodeFor(new TransportError('MCPI_AUTH', 'auth'))).toBe(4);
    expect(exitCodeFor(new AuthRequiredError('https://mcp.example.com/mcp'))).toBe(4);
    expect(exitCodeFor(new AuthError('MCPI_AUTH_ISS_MISMATCH', 'wrong iss'))).toBe(4);
    expect(exitCodeFor(new AuthError('MCPI_AUTH_CANCELLED', 'cancelled'))).toBe(130);
    expect(exitCodeFor(cancelled)).toBe(130);
    expect(exitCodeFor(abort)).toBe(130);
    expect(exitCodeFor(new TypeError('oops'))).toBe(70);
    expect(KIND_EXIT).toEqual({ usage: 64, rpc: 2, transport: 3, auth: 4, 'input-required': 5, cancelled: 130, internal: 70 });
  });

  it("a run ended by a signal exits with that signal's code, whatever was thrown", () => {
    expect(exitCodeFor(cancelled, 'SIGINT')).toBe(130);
    expect(exitCodeFor(cancelled, 'SIGTERM')).toBe(143);
    expect(exitCodeFor(new TransportError('MCPI_CLOSED', 'gone'), 'SIGHUP')).toBe(129);
    expect(explainFailure(cancelled).sentence).toBe('interrupted');
    expect(explainFailure(cancelled, 'SIGTERM').sentence).toBe('interrupted by SIGTERM');
  });

  it('outcomes: a tool error is 1, an unanswered input_required is 5 (issue 7), diff/check verdicts are reserved', () => {
    expect([exitCodeOf('ok'), exitCodeOf('tool-error'), exitCodeOf('input-required'), exitCodeOf('diff-changed'), exitCodeOf('check-failed')]).toEqual([
      0, 1, 5, 6, 7,
    ]);
  });

  it('a -32021 names the capability the server wanted and the flag that left it out', () => {
    const e = new McpError(
      { code: -32021, message: 'Missing capability', data: { requiredCapabilities: { elicitation: { url: {} } } } },
      undefined,
      'tools/call',
    );
    expect(explainFailure(e).sentence).toMatch(/\(the server requires the client capability elicitation\.url; drop --no-elicitation to declare it\)$/);
  });

  it('one sentence per kind', () => {
    expect(explainFailure(new UsageError('no server given')).sentence).toBe('no server given');
    expect(explainFailure(timeout).sentence).toBe('no answer to tools/list within 500 ms');
    expect(explainFailure(rpc).sentence).toBe(
      'the server answered subscriptions/listen with error -32601: Method not found\n  data: {\n    "hint": "x"\n  }\n  (the server cannot be listened to; --poll SECONDS watches it by polling)',
    );
    expect(explainFailure(new TypeError('oops')).sentence).toMatch(/^internal error \(please report it\): TypeError: oops/);
  });
});

describe('describeError: one function, two wordings', () => {
  it("'full' names the code (the TUI), 'inline' fits inside a sentence (the client's messages)", () => {
    expect(describeError(rpc)).toBe('JSON-RPC error -32601 (method not found): Method not found');
    expect(describeError(rpc, 'inline')).toBe('error -32601: Method not found');
    expect(describeError(timeout)).toBe('MCPI_TIMEOUT: no answer to tools/list within 500 ms — nothing came');
    expect(describeError(timeout, 'inline')).toBe('no answer to tools/list within 500 ms');
    expect(describeError(new Error('a\nb\u001b[31m'))).toBe('a b');
    expect(describeError(42)).toBe('42');
  });
});

describe('the documented table', () => {
  it('--help text is generated from EXIT_TABLE, one row per code, reserved rows marked', () => {
    const help = exitCodesHelp();
    const rows = help.split('\n').slice(1);
    expect(help.split('\n')[0]).toBe('Exit codes:');
    expect(rows.map((r) => Number(r.trim().split(/\s+/)[0]))).toEqual(EXIT_TABLE.map((r) => r.code));
    for (const r of EXIT_TABLE) expect(help).toContain(`${r.reserved ? '(reserved) ' : ''}${r.meaning}`);
    expect(EXIT_TABLE.map((r) => r.code)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 64, 70, 129, 130, 143]);
    expect(Object.values(EXIT).sort((a, b) => a - b)).toEqual(EXIT_TABLE.map((r) => r.code));
  });

  it('the README table lists the same codes', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('### Output, errors and exit codes'), readme.indexOf('### Era detection'));
    const codes = [...section.matchAll(/^\| (\d+(?: \/ \d+)*) \|/gm)].flatMap((m) => m[1].split(' / ').map(Number));
    expect(codes).toEqual(EXIT_TABLE.map((r) => r.code));
  });
});

describe('--json documents carry findings', () => {
  it('an error document: the error (kind, message, exitCode, code …) and every finding of the run', () => {
    expect(errorDocument(timeout, [dup])).toEqual({
      error: { kind: 'transport', message: 'no answer to tools/list within 500 ms', exitCode: 3, code: 'MCPI_TIMEOUT', status: null },
      findings: [dup],
    });
    expect(errorDocument(rpc, [])).toEqual({
      error: { kind: 'rpc', message: 'Method not found', exitCode: 2, code: -32601, data: { hint: 'x' } },
      findings: [],
    });
    expect(errorDocument(new UsageError('bad'), []).error).toEqual({ kind: 'usage', message: 'bad', exitCode: 64, code: 'MCPI_USAGE' });
    expect(errorDocument(cancelled, [], 'SIGTERM').error).toEqual({
      kind: 'cancelled',
      message: 'interrupted by SIGTERM',
      exitCode: 143,
      code: 'MCPI_CANCELLED',
      signal: 'SIGTERM',
    });
    expect(errorDocument(new TypeError('oops'), []).error).toMatchObject({ kind: 'internal', exitCode: 70, code: 'MCPI_INTERNAL' });
  });

  it('the finding log keeps the order, drops repeats of the same rule + key, and replays to followers', () => {
    const log = new FindingLog();
    expect(log.add(dup, 1)).toBe(true);
    expect(log.add({ ...dup, message: 'reworded' }, 2)).toBe(false);
    const other = { ...dup, key: 'add' };
    const seen: Finding[] = [];
    const off = log.follow((r) => seen.push(r.finding));
    log.add(other, 3);
    off();
    log.add({ ...dup, key: 'third' }, 4);
    expect(seen).toEqual([dup, other]);
    expect(log.list.map((f) => f.key)).toEqual(['echo', 'add', 'third']);
  });
});
