// `--record FILE` on our own sessions writes each received message's exact text as `raw`
// (issue 20 §3: "the line or SSE data exactly as received"), not the parsed message serialised
// again. The server (test/fixtures/faults/noncanonical.mjs; no SDK server spells JSON oddly)
// answers in valid JSON that JSON.stringify would spell otherwise (spaces, reversed key
// order, `\u` escapes, `1.0`) and logs every text it sent. Over stdio, Streamable HTTP with JSON
// bodies and with SSE streams: the recording's server `raw` are those texts, its http lines
// carry the exchange counter `stream` (request and response alike), and `replay` of it
// against the same server exits 0.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { describeResult, killAllClis, leftoverPids, runCli } from '../helpers/cli.js';
import { fixturePath, startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { isMessageEntry, type HttpEntry, type RecordingEntry } from '../../src/record/format.js';
import { readRecording } from '../../src/record/reader.js';
import { removeTree } from '../helpers/files.js';

const isHttpEntry = (e: RecordingEntry): e is HttpEntry => 'http' in e;

vi.setConfig({ testTimeout: 120_000 });

const dir = mkdtempSync(join(tmpdir(), 'mcpi-record-raw-'));
const FIXTURE = 'faults/noncanonical.mjs';

afterAll(async () => {
  await killAllClis();
  await stopAllFixtures();
  removeTree(dir);
  expect(leftoverPids()).toEqual([]);
});

/** The texts the fixture logged as sent (one JSON string a line). */
const sentTexts = (log: string) =>
  readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as string);

/** Records `cmd` (tools, or a call of echo) against `target`, checks raw against the fixture's log, and replays. */
async function recordAndCheck(name: string, cmd: string[], target: string[], log: string): Promise<ReturnType<typeof readRecording>> {
  const file = join(dir, `${name}.ndjson`);
  const r = await runCli([...cmd, '--record', file, ...target], { timeoutMs: 60_000 });
  expect(r.code, describeResult(r)).toBe(0);
  const rec = readRecording(file);
  const received = rec.entries.filter(isMessageEntry).filter((e) => e.from === 'server');
  const sent = sentTexts(log);
  expect(received.length).toBeGreaterThanOrEqual(2);
  // The bytes as sent, not JSON.stringify of them (which the fixture never matches).
  expect(received.map((e) => e.raw)).toEqual(sent);
  for (const e of received) {
    expect(JSON.stringify(e.message)).not.toBe(e.raw);
    // `1.0`, not the `1` JSON.stringify would write.
    expect(e.raw).toMatch(/"id" : \d+\.0 /);
  }
  expect(received[0].raw).toMatch(/^\{ "r\\u0065sult" : \{ /);
  const replay = await runCli(['replay', file, ...(target[0] === '--' ? [] : target)], { timeoutMs: 60_000 });
  expect(replay.code, describeResult(replay)).toBe(0);
  return rec;
}

describe('--record writes what was received, byte for byte', () => {
  it('over stdio: tools and call', async () => {
    for (const [name, cmd] of [
      ['stdio-tools', ['tools']],
      ['stdio-call', ['call', 'echo', 'text=héllo — ü']],
    ] as const) {
      const log = join(dir, `${name}.log`);
      const rec = await recordAndCheck(name, [...cmd], ['--', process.execPath, fixturePath(FIXTURE), '--stdio', '--log', log], log);
      expect(rec.entries.some(isHttpEntry)).toBe(false);
    }
  });

  for (const mode of ['json', 'sse'] as const) {
    it(`over Streamable HTTP with ${mode === 'json' ? 'JSON bodies' : 'SSE streams'}: tools and call, with the stream counter`, async () => {
      for (const [name, cmd] of [
        [`${mode}-tools`, ['tools']],
        [`${mode}-call`, ['call', 'echo', 'text=héllo — ü']],
      ] as const) {
        const log = join(dir, `${name}.log`);
        const server: HttpFixture = await startHttpFixture(FIXTURE, ['--http', ...(mode === 'sse' ? ['--sse'] : []), '--log', log]);
        try {
          const rec = await recordAndCheck(name, [...cmd], [server.url], log);
          const http = rec.entries.filter(isHttpEntry).map((e) => e.http);
          expect(http.length).toBeGreaterThanOrEqual(4);
          // Each POST and its answer share one number; the numbers count up from 1.
          const requests = http.filter((h) => h.kind === 'request');
          expect(requests.map((h) => h.stream)).toEqual(requests.map((_, i) => i + 1));
          for (const h of http.filter((x) => x.kind === 'response')) expect(requests.some((q) => q.stream === h.stream)).toBe(true);
          if (mode === 'sse') expect(http.some((h) => h.headers['content-type'] === 'text/event-stream')).toBe(true);
        } finally {
          await server.stop();
        }
      }
    });
  }
});
