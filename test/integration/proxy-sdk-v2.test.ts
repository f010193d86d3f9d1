// The official SDK v2 client (@modelcontextprotocol/client) through every form of the proxy
// (issue 20, "Done means": a host that is not mcp-inspect works through it unchanged, v1 and
// v2), against SDK servers of both eras: its default legacy negotiation against the SDK v1
// server, its `auto` negotiation (server/discover, 2026-07-28) against the SDK v2 server.
// - `proxy -- CMD`: a tee on each side of the proxy; both sides saw the same bytes.
// - `proxy --http PORT URL`: the client's POST bodies (its own fetch logs them) are what the
//   server got (an observing `proxy --http --record` in front of it), and the results are
//   those of a direct connection.
// - `proxy URL` (the bridge): the client over stdio, the server over HTTP.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { BIN, REPO_ROOT, startCli } from '../helpers/cli.js';
import { fileScope } from '../helpers/scope.js';
import { fixturePath, startHttpFixture } from '../helpers/servers.js';
import { readRecording } from '../../src/record/reader.js';
import { isMessageEntry } from '../../src/record/format.js';

const TEE = fixturePath('tee-stdio.mjs');
const { dir, running } = fileScope('mcpi-sdk-v2-');
const ERAS = [
  { era: 'legacy', file: 'legacy-server.mjs', mode: 'legacy' as const, tool: 'add' },
  { era: 'modern', file: 'modern-server.mjs', mode: 'auto' as const, tool: 'add' },
];

const v2Client = (mode: 'legacy' | 'auto') => new Client({ name: 'sdk-v2-host', version: '2.0.0' }, { versionNegotiation: { mode } });

/** What the host asks in every test, and what it got (ids and _meta left out of the comparison by taking results only). */
async function session(client: Client) {
  const tools = (await client.listTools()).tools.map((t) => t.name).sort();
  const add = await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } });
  const echo = await client.callTool({ name: 'echo', arguments: { text: 'héllo ✓' } });
  return { tools, add: add.structuredContent, echo: echo.content, era: client.getProtocolEra() };
}

const read = (f: string) => {
  try {
    return readFileSync(f, 'utf8');
  } catch {
    return '';
  }
};

async function httpProxy(url: string, name: string) {
  const rec = join(dir, `${name}.ndjson`);
  const p = startCli(['proxy', '--http', '0', '--record', rec, url], { timeoutMs: 180_000 });
  running.push(p);
  const [proxyUrl] = await p.waitFor(/http:\/\/\S+/, { timeoutMs: 30_000 });
  return { url: proxyUrl, rec };
}

const hostMessages = (rec: string) =>
  readRecording(rec)
    .entries.filter(isMessageEntry)
    .filter((e) => e.from === 'host')
    .map((e) => e.raw);

describe('the SDK v2 client through the proxy', { timeout: 120_000 }, () => {
  for (const e of ERAS) {
    it(`proxy -- CMD (${e.era} server over stdio): the same bytes on both sides`, async () => {
      const log = join(dir, `stdio-${e.era}`);
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [
          TEE,
          `${log}.host`,
          '--',
          process.execPath,
          BIN,
          'proxy',
          '--',
          process.execPath,
          TEE,
          `${log}.server`,
          '--',
          process.execPath,
          fixturePath(e.file),
          '--stdio',
        ],
        cwd: REPO_ROOT,
        stderr: 'pipe',
      });
      const client = v2Client(e.mode);
      await client.connect(transport);
      const got = await session(client);
      await client.close();
      expect(got.era).toBe(e.era);
      expect(got.tools).toContain('echo');
      expect(got.add).toEqual({ sum: 42 });
      expect(read(`${log}.server.in`)).toBe(read(`${log}.host.in`));
      expect(read(`${log}.host.out`)).toBe(read(`${log}.server.out`));
      expect(read(`${log}.host.in`)).toContain(e.era === 'modern' ? '"io.modelcontextprotocol/protocolVersion":"2026-07-28"' : '"method":"initialize"');
    });

    it(`proxy --http PORT URL (${e.era} server): the server got the client's bodies; results as direct`, async () => {
      const f = await startHttpFixture(e.file, ['--http']);
      const direct = v2Client(e.mode);
      await direct.connect(new StreamableHTTPClientTransport(new URL(f.url)));
      const want = await session(direct);
      await direct.close();

      const observer = await httpProxy(f.url, `observer-${e.era}`);
      const proxy = await httpProxy(observer.url, `proxy-${e.era}`);
      const sent: string[] = [];
      const logging: typeof fetch = async (input, init) => {
        if (init?.method === 'POST' && typeof init.body === 'string') sent.push(init.body);
        return fetch(input, init);
      };
      const client = v2Client(e.mode);
      await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url), { fetch: logging }));
      const got = await session(client);
      await client.close();
      expect(got).toEqual(want);
      expect(got.era).toBe(e.era);
      expect(hostMessages(observer.rec)).toEqual(sent);
    });

    it(`proxy URL, the bridge (${e.era} server over HTTP): results as direct`, async () => {
      const f = await startHttpFixture(e.file, ['--http']);
      const direct = v2Client(e.mode);
      await direct.connect(new StreamableHTTPClientTransport(new URL(f.url)));
      const want = await session(direct);
      await direct.close();

      const observer = await httpProxy(f.url, `bridge-observer-${e.era}`);
      const log = join(dir, `bridge-${e.era}`);
      const client = v2Client(e.mode);
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [TEE, log, '--', process.execPath, BIN, 'proxy', observer.url],
          cwd: REPO_ROOT,
          stderr: 'pipe',
        }),
      );
      const got = await session(client);
      await client.close();
      // Over HTTP the client drops the tools whose x-mcp-header is invalid (it could not send
      // their headers); over stdio it keeps them, and the bridge passes tools/list as it came.
      expect({ ...got, tools: got.tools.filter((t) => !t.startsWith('bad_header')) }).toEqual(want);
      // Each line the host wrote is the body of one POST, as it came. (On a loaded machine the
      // client may give up its server/discover probe and spawn the bridge again, whose tee log
      // starts anew: the observer then also saw that first probe.)
      const lines = read(`${log}.in`).split('\n').filter(Boolean);
      expect(lines.length).toBeGreaterThanOrEqual(3);
      expect(hostMessages(observer.rec)).toEqual(expect.arrayContaining(lines));
    });
  }
});
