// Issue 17, points 8–14, at the level of the modules: the exit-5 hint quoting, which URLs
// may be opened and how a browser template gets them, the depth bound, snapshot escaping,
// URL redaction, the state folder and project-entry approval (through resolveTarget, the
// one place every config-reading command goes through).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildPendingDocument, elicitArgument, pendingSummary, resolveRound, collectAnswers } from '../../src/cli/elicit-args.js';
import { parseInputRequired } from '../../src/protocol/mrtr.js';
import { openableUrl, shellSafeUrl } from '../../src/util/open-url.js';
import { openBrowser } from '../../src/auth/browser.js';
import { platformOpener } from '../../src/tui/context/services.js';
import { boundDepth, deepMarker, parseBounded, withinDepth, MAX_DEPTH } from '../../src/util/depth.js';
import { canonicalize, stableStringify } from '../../src/util/json.js';
import { sanitizeDeep } from '../../src/util/sanitize.js';
import { parseMessage } from '../../src/protocol/jsonrpc.js';
import { buildSnapshot, serializeSnapshot } from '../../src/contract/snapshot.js';
import { redactUrl, redactUrlsIn } from '../../src/util/redact.js';
import { stateDir, readStateFile, writeStateFile } from '../../src/state/index.js';
import { resolveTarget } from '../../src/cli/target.js';
import { ConfigError } from '../../src/config/types.js';
import { removeTree } from '../helpers/files.js';

const tmp = mkdtempSync(join(tmpdir(), 'mcpi-security-'));
afterAll(() => removeTree(tmp));

describe('8: the exit-5 hint is one quoted shell word', () => {
  const input = parseInputRequired({
    resultType: 'input_required',
    inputRequests: {
      'x;touch pwned;y': {
        method: 'elicitation/create',
        params: { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } },
      },
      "it's": { method: 'elicitation/create', params: { mode: 'url', message: 'Open', url: 'https://example.com/a' } },
    },
  });
  const resolved = resolveRound(input.requests, collectAnswers({}));
  const doc = buildPendingDocument({ method: 'tools/call', params: { name: 't' }, round: 1, input, responses: {}, missing: resolved.missing });

  it('quotes the whole KEY=VALUE, always (stderr and pending[].answerWith)', () => {
    expect(elicitArgument('confirm', 'decline')).toBe(`--elicit 'confirm=decline'`);
    expect(doc.pending[0].answerWith).toBe(`--elicit 'x;touch pwned;y={"n":"…"}' (or --elicit 'x;touch pwned;y=decline', --elicit 'x;touch pwned;y=cancel')`);
    expect(doc.pending[1].answerWith).toContain(`--elicit 'it'\\''s=accept'`);
    expect(pendingSummary(doc)[0]).toContain(`answer with --elicit 'x;touch pwned;y={"n":"…"}'`);
  });

  it('pasted into sh, each hint is the one argument it says, and runs nothing', () => {
    const dir = mkdtempSync(join(tmp, 'sh-'));
    for (const p of doc.pending) {
      const words = p.answerWith.match(/--elicit '(?:[^']|'\\'')*'/g)!;
      for (const w of words) {
        const out = execFileSync('sh', ['-c', `printf '%s\\n' ${w}`], { cwd: dir, encoding: 'utf8' });
        expect(out.split('\n')[1]).toMatch(new RegExp(`^${p.key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}=`));
      }
    }
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
  });
});

describe('9 and 10: which URLs are opened, and how', () => {
  it('only https:, and http: on loopback', () => {
    expect(openableUrl('https://example.com/x')).toEqual({ ok: true });
    for (const u of ['http://127.0.0.1:8080/cb', 'http://localhost/cb', 'http://[::1]:9/']) expect(openableUrl(u)).toEqual({ ok: true });
    expect(openableUrl('file:///etc/passwd')).toEqual({ ok: false, reason: 'scheme file: is never opened: only https: (and http: on loopback) URLs are' });
    expect(openableUrl('javascript:alert(1)').ok).toBe(false);
    expect(openableUrl('http://example.com/')).toEqual({ ok: false, reason: 'plain http: to example.com (not loopback): only https: URLs are opened' });
    expect(openableUrl('not a url').ok).toBe(false);
  });
  it('Windows never goes through cmd /c start', () => {
    expect(platformOpener('https://a/?x=1&y=2', 'win32')).toEqual(['rundll32', ['url.dll,FileProtocolHandler', 'https://a/?x=1&y=2']]);
    expect(platformOpener('https://a/', 'darwin')).toEqual(['open', ['https://a/']]);
    expect(platformOpener('https://a/', 'linux')).toEqual(['xdg-open', ['https://a/']]);
  });
  it('shellSafeUrl percent-encodes every shell-special character', () => {
    expect(shellSafeUrl('https://as.example/$(touch pwned)`id`;a|b&c<d>e\'f"g\\h !*?[]{}~#^')).toBe(
      'https://as.example/%24%28touch%20pwned%29%60id%60%3Ba%7Cb%26c%3Cd%3Ee%27f%22g%5Ch%20%21%2A?%5B%5D%7B%7D%7E%23%5E',
    );
    expect(shellSafeUrl('https://as.example/authorize?client_id=a%20b&x=1')).toBe('https://as.example/authorize?client_id=a%20b%26x=1');
  });
  it('a $BROWSER shell template (sh -c "… %s") never runs the URL; a plain command gets it as one argument', async () => {
    const dir = mkdtempSync(join(tmp, 'browser-'));
    const seen = join(dir, 'seen');
    const url = 'https://as.example/authorize/$(touch pwned)`touch pwned2`;touch pwned3?state=1';
    const template = await openBrowser(url, { kind: 'command', command: `sh -c 'cd ${dir} && echo %s > ${seen}'` });
    expect(await template.exited).toBe(0);
    expect(readFileSync(seen, 'utf8')).toBe(shellSafeUrl(url) + '\n');
    expect(['pwned', 'pwned2', 'pwned3'].filter((f) => existsSync(join(dir, f)))).toEqual([]);
    const plain = await openBrowser(url, {
      kind: 'command',
      command: `${process.execPath} -e "require('fs').writeFileSync(process.argv[1], process.argv[2])" ${seen}`,
    });
    expect(await plain.exited).toBe(0);
    expect(readFileSync(seen, 'utf8')).toBe(url);
    // `prog %s` (%s a word of its own, prog no shell): the URL as it is, one argument, no shell.
    const word = await openBrowser(url, {
      kind: 'command',
      command: `${process.execPath} -e "require('fs').writeFileSync(process.argv[1], process.argv[2])" ${seen} %s`,
    });
    expect(await word.exited).toBe(0);
    expect(readFileSync(seen, 'utf8')).toBe(url);
    await expect(openBrowser('file:///etc/passwd', { kind: 'command', command: 'true' })).rejects.toThrow(/scheme file: is never opened/);
  });
});

describe('11: the depth bound', () => {
  const N = 100_000;
  const deepText = '{"a":'.repeat(N) + '1' + '}'.repeat(N);
  const deep = () => {
    let v: unknown = 1;
    for (let i = 0; i < N; i++) v = { a: v };
    return v;
  };
  const depthOf = (v: unknown): number => {
    let d = 0;
    while (v && typeof v === 'object') {
      v = (v as { a: unknown }).a;
      d++;
    }
    return d;
  };

  it('a received message is cut at 128 levels, once, where it is parsed', () => {
    const m = parseMessage(`{"jsonrpc":"2.0","id":1,"result":${deepText}}`);
    expect(m.kind).toBe('response');
    const v = (m as { message: { result: unknown } }).message;
    expect(depthOf(v.result)).toBe(MAX_DEPTH - 1);
    expect(JSON.stringify(v)).toContain(JSON.stringify(deepMarker()));
    expect(boundDepth(parseBounded(deepText)).cut).toBe(false);
  });
  it('the shortest texts around the bound: 129 nested arrays (258 characters) are cut, 128 (256, not walked) are whole', () => {
    const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(nested(MAX_DEPTH + 1)).toHaveLength(2 * MAX_DEPTH + 2);
    expect(JSON.stringify(parseBounded(nested(MAX_DEPTH + 1)))).toContain(JSON.stringify(deepMarker()));
    expect(parseBounded(nested(MAX_DEPTH))).toEqual(JSON.parse(nested(MAX_DEPTH)));
    expect(boundDepth(parseBounded(nested(MAX_DEPTH))).cut).toBe(false);
  });
  it('walks over values built in memory are bounded too: canonicalize, sanitizeDeep, withinDepth', () => {
    const v = deep();
    expect(stableStringify(v)).toContain('(nested deeper than 128 levels)');
    expect(JSON.stringify(canonicalize(v)).length).toBeLessThan(2000);
    expect(JSON.stringify(sanitizeDeep(v))).toContain('(nested deeper than 128 levels)');
    const w = withinDepth(v);
    expect(depthOf(w)).toBe(MAX_DEPTH);
    expect(depthOf(v)).toBe(N); // untouched
    const shallow = { a: [1, { b: 2 }] };
    expect(withinDepth(shallow)).toBe(shallow);
  });
});

describe('13: snapshot files escape invisible and bidi characters', () => {
  it('U+202E, C1 controls and U+2066 are written as \\uXXXX, the value unchanged', () => {
    const name = 'safe\u202eexe.txt\u0085next\u009b2J\u2066iso';
    const snap = buildSnapshot({
      serverInfo: { name: 'x', version: '1' },
      protocolVersion: '2026-07-28',
      supportedVersions: ['2026-07-28'],
      era: 'modern',
      capabilities: {},
      tools: [{ name: 'bidi', description: name, inputSchema: { type: 'object' } }],
    });
    const text = serializeSnapshot(snap);
    expect(text).toContain('safe\\u202eexe.txt\\u0085next\\u009b2J\\u2066iso');
    expect(text).not.toMatch(/[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(text).tools[0].description).toBe(name);
  });
});

describe('14: one redaction rule for URLs', () => {
  it('key, *_key, token, api_key, code, sig, password, fragments', () => {
    expect(redactUrl('https://api.example/mcp?key=SECRET&q=1')).toBe('https://api.example/mcp?key=[redacted]&q=1');
    expect(redactUrl('https://api.example/mcp?token=T&api_key=K&access_key=A&code=C&region=eu')).toBe(
      'https://api.example/mcp?token=[redacted]&api_key=[redacted]&access_key=[redacted]&code=[redacted]&region=eu',
    );
    expect(redactUrl('https://u:pw@api.example/mcp#access_token=T&x=1')).toBe('https://u:[redacted]@api.example/mcp#access_token=[redacted]&x=1');
    expect(redactUrl('https://api.example/mcp?monkey=1')).toBe('https://api.example/mcp?monkey=1');
    expect(redactUrlsIn('npx mcp-remote https://api.example/mcp?key=S --flag')).toBe('npx mcp-remote https://api.example/mcp?key=[redacted] --flag');
  });
});

describe('12: the state folder and project-entry approval', () => {
  it('the state folder is the platform usual one, or $MCP_INSPECT_STATE_DIR', () => {
    expect(stateDir({ platform: 'linux', home: '/h', env: {} })).toBe('/h/.local/state/mcp-inspect');
    expect(stateDir({ platform: 'linux', home: '/h', env: { XDG_STATE_HOME: '/x/state' } })).toBe('/x/state/mcp-inspect');
    expect(stateDir({ platform: 'linux', home: '/h', env: { XDG_STATE_HOME: 'relative' } })).toBe('/h/.local/state/mcp-inspect');
    expect(stateDir({ platform: 'darwin', home: '/Users/a', env: {} })).toBe('/Users/a/Library/Application Support/mcp-inspect');
    expect(stateDir({ platform: 'win32', home: 'C:\\Users\\a', env: { LOCALAPPDATA: 'C:\\Users\\a\\AppData\\Local' } })).toBe(
      'C:\\Users\\a\\AppData\\Local\\mcp-inspect',
    );
    expect(stateDir({ platform: 'win32', home: 'C:\\Users\\a', env: {} })).toBe('C:\\Users\\a\\AppData\\Local\\mcp-inspect');
    expect(stateDir({ platform: 'linux', home: '/h', env: { MCP_INSPECT_STATE_DIR: '/t/s' } })).toBe('/t/s');
    const o = { env: { MCP_INSPECT_STATE_DIR: join(tmp, 'state-a') } };
    expect(readStateFile('x.json', o)).toBeUndefined();
    writeStateFile('x.json', '{}', o);
    expect(readStateFile('x.json', o)).toBe('{}');
  });

  function world(name: string) {
    const home = join(tmp, name, 'home');
    const cwd = join(tmp, name, 'project');
    mkdirSync(join(home, '.cursor'), { recursive: true });
    mkdirSync(cwd, { recursive: true });
    writeFileSync(join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { mytool: { command: 'user-tool' } } }));
    const project = (entry: object) =>
      writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { mytool: entry, web: { url: 'https://x.example/mcp' } } }));
    project({ command: 'evil', args: ['${env:SECRET}'] });
    const env = { SECRET: 's3cret', MCP_INSPECT_STATE_DIR: join(tmp, name, 'state') };
    const ctx = { cwd, home, platform: 'linux' as const, env, readFile: (p: string) => (existsSync(p) ? readFileSync(p, 'utf8') : undefined) };
    return { ctx, env, project };
  }

  it('unapproved: exit 64 naming the flag and the shadowed entry; --trust-project and MCP_INSPECT_TRUST_PROJECT=1 use it', async () => {
    const w = world('refuse');
    const e = await resolveTarget(undefined, [], { server: 'mytool' }, { configContext: w.ctx, prompt: null }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as ConfigError).code).toBe('MCPI_CONFIG_UNAPPROVED');
    expect((e as Error).message).toMatch(
      /server "mytool" from .*\.mcp\.json \(Claude Code, project\) runs a command \(evil \$\{env:SECRET\}\) and is not approved; it shadows ~\/\.cursor\/mcp\.json \(Cursor, user\)\..*--trust-project \(MCP_INSPECT_TRUST_PROJECT=1\)/,
    );
    expect(await resolveTarget(undefined, [], { server: 'mytool', trustProject: true }, { configContext: w.ctx, prompt: null })).toMatchObject({
      command: 'evil',
      args: ['s3cret'],
    });
    const trusted = { ...w.ctx, env: { ...w.env, MCP_INSPECT_TRUST_PROJECT: '1' } };
    expect(await resolveTarget(undefined, [], { server: 'mytool' }, { configContext: trusted, prompt: null })).toMatchObject({ command: 'evil' });
    // An http entry without headers sends nothing configured: no approval needed.
    expect(await resolveTarget(undefined, [], { server: 'web' }, { configContext: w.ctx, prompt: null })).toMatchObject({ kind: 'http' });
  });

  it('asked once on a terminal: yes is remembered by the entry hash; a changed entry is asked again; no refuses', async () => {
    const w = world('ask');
    const asked: string[] = [];
    const yes = async (q: { description?: string }) => {
      asked.push(q.description ?? '');
      return 'y';
    };
    expect(await resolveTarget(undefined, [], { server: 'mytool' }, { configContext: w.ctx, prompt: yes })).toMatchObject({ command: 'evil' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/runs a command .* it shadows ~\/\.cursor\/mcp\.json \(Cursor, user\)\. Use it \(remembered\)\?/);
    expect(await resolveTarget(undefined, [], { server: 'mytool' }, { configContext: w.ctx, prompt: null })).toMatchObject({ command: 'evil' });
    expect(readStateFile('approved-project-servers.json', { env: w.env })).toContain('"name": "mytool"');
    w.project({ command: 'evil2' });
    await expect(resolveTarget(undefined, [], { server: 'mytool' }, { configContext: w.ctx, prompt: null })).rejects.toThrow(/not approved/);
    await expect(resolveTarget(undefined, [], { server: 'mytool' }, { configContext: w.ctx, prompt: async () => 'n' })).rejects.toThrow(/not approved/);
  });

  it('entries the user wrote need none: user files, ~/.claude.json projects[<cwd>], an explicit --config file', async () => {
    const w = world('own');
    writeFileSync(join(w.ctx.home, '.claude.json'), JSON.stringify({ projects: { [w.ctx.cwd]: { mcpServers: { local: { command: 'mine' } } } } }));
    expect(await resolveTarget(undefined, [], { server: 'local' }, { configContext: w.ctx, prompt: null })).toMatchObject({ command: 'mine' });
    expect(
      await resolveTarget(undefined, [], { server: 'mytool', config: join(w.ctx.cwd, '.mcp.json') }, { configContext: w.ctx, prompt: null }),
    ).toMatchObject({
      command: 'evil',
    });
  });
});
