import { describe, expect, it } from 'vitest';
import { ConfigError, discoverServers, parseJsonc, parseToml, positionAt, type ConfigContext, type ServerEntry } from '../../src/config/index.js';
import { readCodexEntry, readEntry, readInputs } from '../../src/config/entry.js';

/** Validates the entry `x` of `{"mcpServers": {"x": <json>}}`, as written in /p/mcp.json. */
function entry(json: string): ServerEntry {
  const text = `{ "mcpServers": { "x": ${json} } }`;
  const doc = parseJsonc(text, '/p/mcp.json');
  return readEntry((doc.value as { mcpServers: { x: unknown } }).mcpServers.x, {
    file: '/p/mcp.json',
    name: 'x',
    path: ['mcpServers', 'x'],
    doc,
    show: (f) => f,
  });
}

function entryError(json: string): string {
  try {
    entry(json);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as ConfigError).code).toBe('MCPI_CONFIG_SHAPE');
    expect((e as ConfigError).server).toBe('x');
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
}

function codex(toml: string): ServerEntry {
  const doc = parseToml(`[mcp_servers.x]\n${toml}`, '/h/.codex/config.toml');
  return readCodexEntry((doc.value as { mcp_servers: { x: unknown } }).mcp_servers.x, {
    file: '/h/.codex/config.toml',
    name: 'x',
    path: ['mcp_servers', 'x'],
    doc,
    show: (f) => f,
  });
}

describe('parseJsonc', () => {
  it('accepts comments, trailing commas, a BOM and an empty file', () => {
    expect(parseJsonc('\ufeff{\n // c\n "a": [1, 2,], /* b */\n "b": { "x": 1, },\n}', 'f').value).toEqual({ a: [1, 2], b: { x: 1 } });
    expect(parseJsonc('', 'f').value).toBeUndefined();
    expect(parseJsonc('  // only a comment\n', 'f').value).toBeUndefined();
  });

  it('errors name file, line and column (1-based), in plain words', () => {
    const cases: Array<[string, string]> = [
      ['{\n  "a": 1\n  "b": 2\n}', 'f.json:3:3: not valid JSON: a comma was expected'],
      ['{\n  "a": \n}', 'f.json:3:1: not valid JSON: a value was expected'],
      ["{ 'a': 1 }", 'f.json:1:3: not valid JSON: unexpected character (and 2 more errors)'],
      ['{ "a": 1 } {}', 'f.json:1:12: not valid JSON: the end of the file was expected (extra text after the value)'],
      ['{ "a": "unterminated', 'f.json:1:8: not valid JSON: the file ends inside a string (and 1 more error)'],
      ['{\r\n"a": 1,\r\n"b" 2 }', 'f.json:3:5: not valid JSON: a colon was expected'],
    ];
    for (const [text, message] of cases) {
      let err: ConfigError | undefined;
      try {
        parseJsonc(text, '/x/f.json', (f) => f.slice(3));
      } catch (e) {
        err = e as ConfigError;
      }
      expect(err?.message, text).toBe(message);
      expect(err).toMatchObject({ code: 'MCPI_CONFIG_SYNTAX', file: '/x/f.json' });
    }
  });

  it('keysOf keeps the order written; positionOf points at a value', () => {
    const doc = parseJsonc('{\n  "s": {\n    "2": 1,\n    "a": 2,\n    "1": 3\n  }\n}', 'f');
    expect(doc.keysOf(['s'])).toEqual(['2', 'a', '1']);
    expect(Object.keys((doc.value as { s: object }).s)).toEqual(['1', '2', 'a']); // what JS would do
    expect(doc.positionOf(['s', 'a'])).toEqual({ line: 4, column: 10 });
    expect(doc.positionOf(['nope'])).toBeUndefined();
  });

  it('positionAt counts \\n, \\r\\n and \\r line ends', () => {
    expect(positionAt('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
    expect(positionAt('ab\r\ncd', 5)).toEqual({ line: 2, column: 2 });
    expect(positionAt('ab\rcd', 4)).toEqual({ line: 2, column: 2 });
    expect(positionAt('abc', 0)).toEqual({ line: 1, column: 1 });
  });
});

describe('parseToml', () => {
  it('reads Codex tables and reports errors with line and column', () => {
    expect(parseToml('[mcp_servers.a]\ncommand = "x"\nargs = ["1"]\n', 'c.toml').value).toEqual({ mcp_servers: { a: { command: 'x', args: ['1'] } } });
    let err: ConfigError | undefined;
    try {
      parseToml('model = "x"\n\n[mcp_servers.a\n', '/h/config.toml');
    } catch (e) {
      err = e as ConfigError;
    }
    expect(err).toMatchObject({ code: 'MCPI_CONFIG_SYNTAX', file: '/h/config.toml', line: 3 });
    expect(err!.message).toMatch(/^\/h\/config\.toml:3:\d+: not valid TOML: \S/);
    expect(err!.message).not.toContain('\n');
  });
});

describe('readEntry: the shapes clients write', () => {
  it('stdio: command, args (numbers as text), env (numbers and booleans as text, null left out), envFile, cwd', () => {
    expect(
      entry('{ "command": "node", "args": ["s.js", 3, true], "env": { "A": "1", "B": 2, "C": false, "D": null }, "envFile": ".env", "cwd": "srv" }'),
    ).toEqual({
      transport: 'stdio',
      command: 'node',
      args: ['s.js', '3', 'true'],
      env: { A: '1', B: '2', C: 'false' },
      envFile: '.env',
      cwd: 'srv',
    });
  });

  it('http: url, headers; type http and streamable-http; a url alone is http', () => {
    expect(entry('{ "url": "https://h/mcp", "headers": { "X-Key": "k" } }')).toEqual({ transport: 'http', url: 'https://h/mcp', headers: { 'X-Key': 'k' } });
    expect(entry('{ "type": "streamable-http", "url": "https://h/mcp" }')).toEqual({ transport: 'http', type: 'streamable-http', url: 'https://h/mcp' });
    expect(entry('{ "type": "HTTP", "url": "https://h/mcp" }')).toEqual({ transport: 'http', type: 'http', url: 'https://h/mcp' });
  });

  it('sse: type sse; Windsurf serverUrl is url', () => {
    expect(entry('{ "type": "sse", "url": "https://h/sse" }')).toEqual({ transport: 'sse', type: 'sse', url: 'https://h/sse' });
    expect(entry('{ "serverUrl": "https://h/mcp" }')).toEqual({ transport: 'http', url: 'https://h/mcp' });
    expect(entry('{ "serverUrl": "https://h/mcp", "url": "https://h/mcp" }')).toEqual({ transport: 'http', url: 'https://h/mcp' });
  });

  it('type decides when both command and url are written; fields of the other transport are dropped', () => {
    expect(entry('{ "type": "stdio", "command": "c", "url": "https://h" }')).toEqual({ transport: 'stdio', type: 'stdio', command: 'c' });
    expect(entry('{ "type": "http", "command": "c", "url": "https://h", "args": ["a"] }')).toEqual({ transport: 'http', type: 'http', url: 'https://h' });
  });

  it('disabled, roots, oauth (ours), and unknown fields ignored', () => {
    expect(
      entry(
        '{ "command": "c", "disabled": true, "alwaysAllow": ["t"], "roots": ["${workspaceFolder}", "/data"], "oauth": { "clientId": "id", "clientSecret": "${env:S}", "clientMetadataUrl": "https://c/m.json", "scopes": ["a", "b"], "callbackPort": 8080, "other": 1 } }',
      ),
    ).toEqual({
      transport: 'stdio',
      command: 'c',
      disabled: true,
      roots: ['${workspaceFolder}', '/data'],
      oauth: { clientId: 'id', clientSecret: '${env:S}', clientMetadataUrl: 'https://c/m.json', scopes: ['a', 'b'], callbackPort: 8080 },
    });
    expect(entry('{ "command": "c", "disabled": false, "oauth": { "scopes": "read  write" } }')).toEqual({
      transport: 'stdio',
      command: 'c',
      oauth: { scopes: ['read', 'write'] },
    });
  });

  it('each wrong shape is an error naming file, line, column, server and field', () => {
    const cases: Array<[string, string]> = [
      ['"npx"', '/p/mcp.json:1:24: server "x" must be an object (got the text "npx")'],
      [
        '{ "type": "websocket", "url": "ws://h" }',
        '/p/mcp.json:1:34: server "x": "type" is "websocket", which mcp-inspect does not know (known: stdio, http, streamable-http, sse)',
      ],
      ['{ "type": 1, "command": "c" }', '/p/mcp.json:1:34: server "x": "type" must be a string (got the number 1)'],
      ['{ "args": ["a"] }', '/p/mcp.json:1:24: server "x" has neither "command" nor "url"'],
      ['{ "command": "c", "url": "https://h" }', '/p/mcp.json:1:24: server "x" has both "command" and "url"; say which with "type": "stdio" or "http"'],
      ['{ "type": "stdio", "url": "https://h" }', '/p/mcp.json:1:24: server "x" has type "stdio" but no "command"'],
      ['{ "type": "sse", "command": "c" }', '/p/mcp.json:1:24: server "x" has type "sse" but no "url"'],
      ['{ "command": ["node", "s.js"] }', '/p/mcp.json:1:37: server "x": "command" must be a string (got an array)'],
      ['{ "command": " " }', '/p/mcp.json:1:37: server "x": "command" is empty'],
      ['{ "command": "c", "args": "a b" }', '/p/mcp.json:1:50: server "x": "args" must be an array of strings (got the text "a b")'],
      ['{ "command": "c", "args": ["a", {}] }', '/p/mcp.json:1:56: server "x": "args.1" must be a string (got an object)'],
      ['{ "command": "c", "env": ["A=1"] }', '/p/mcp.json:1:49: server "x": "env" must be an object of strings (got an array)'],
      ['{ "command": "c", "env": { "A": {} } }', '/p/mcp.json:1:56: server "x": "env.A" must be a string (got an object)'],
      ['{ "command": "c", "cwd": 1 }', '/p/mcp.json:1:49: server "x": "cwd" must be a string (got the number 1)'],
      ['{ "url": "https://h", "headers": "Bearer x" }', '/p/mcp.json:1:57: server "x": "headers" must be an object of strings (got the text "Bearer x")'],
      ['{ "url": "https://a", "serverUrl": "https://b" }', '/p/mcp.json:1:59: server "x": "serverUrl" differs from "url"; keep one'],
      ['{ "command": "c", "disabled": "yes" }', '/p/mcp.json:1:54: server "x": "disabled" must be true or false (got the text "yes")'],
      ['{ "command": "c", "roots": "/data" }', '/p/mcp.json:1:51: server "x": "roots" must be an array of paths (got the text "/data")'],
      ['{ "command": "c", "roots": [""] }', '/p/mcp.json:1:52: server "x": "roots.0" must be a path (got the text "")'],
      ['{ "command": "c", "oauth": "id" }', '/p/mcp.json:1:51: server "x": "oauth" must be an object (got the text "id")'],
      ['{ "command": "c", "oauth": { "clientId": 7 } }', '/p/mcp.json:1:65: server "x": "oauth.clientId" must be a string (got the number 7)'],
      ['{ "command": "c", "oauth": { "scopes": [1] } }', '/p/mcp.json:1:63: server "x": "oauth.scopes" must be an array of strings (got an array)'],
      ['{ "command": "c", "oauth": { "callbackPort": "80" } }', '/p/mcp.json:1:69: server "x": "oauth.callbackPort" must be a port number (got the text "80")'],
    ];
    for (const [json, message] of cases) expect(entryError(json), json).toBe(message);
  });
});

describe('readCodexEntry', () => {
  it('maps Codex fields onto the common shape', () => {
    expect(codex('command = "npx"\nargs = ["-y", "srv"]\ncwd = "/w"\n[mcp_servers.x.env]\nK = "v"')).toEqual({
      transport: 'stdio',
      command: 'npx',
      args: ['-y', 'srv'],
      cwd: '/w',
      env: { K: 'v' },
    });
    expect(
      codex(
        'url = "https://h/mcp"\nbearer_token_env_var = "TOK"\nhttp_headers = { "X-Region" = "eu" }\nenv_http_headers = { "X-Key" = "KEY_VAR" }\nenabled = false\nscopes = ["repo"]\n[mcp_servers.x.oauth]\nclient_id = "cid"',
      ),
    ).toEqual({
      transport: 'http',
      url: 'https://h/mcp',
      headers: { 'X-Region': 'eu', 'X-Key': '${env:KEY_VAR}', Authorization: 'Bearer ${env:TOK}' },
      disabled: true,
      oauth: { clientId: 'cid', scopes: ['repo'] },
    });
  });

  it('wrong Codex shapes are errors naming the server and field', () => {
    const err = (toml: string) => {
      try {
        codex(toml);
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(err('url = "https://h"\nbearer_token_env_var = "not a name"')).toBe(
      '/h/.codex/config.toml: server "x": "bearer_token_env_var" must name an environment variable (got the text "not a name")',
    );
    expect(err('command = "c"\nenabled = "no"')).toBe('/h/.codex/config.toml: server "x": "enabled" must be true or false (got the text "no")');
    expect(err('url = "https://h"\nhttp_headers = "x"')).toBe(
      '/h/.codex/config.toml: server "x": "http_headers" must be a table of strings (got the text "x")',
    );
    expect(err('url = "https://h"\nenv_http_headers = { "X" = 1 }')).toBe(
      '/h/.codex/config.toml: server "x": "env_http_headers.X" must name an environment variable (got the number 1)',
    );
    expect(err('args = ["a"]')).toBe('/h/.codex/config.toml: server "x" has neither "command" nor "url"');
  });

  it('a Codex file through discovery', () => {
    const ctx: ConfigContext = {
      cwd: '/w',
      home: '/h',
      platform: 'linux',
      env: {},
      readFile: (p) => (p === '/h/.codex/config.toml' ? '[mcp_servers.ok]\ncommand = "ok"\n[mcp_servers.bad]\ncommand = 3\n' : undefined),
    };
    const d = discoverServers(ctx);
    expect(d.entries.map((e) => [e.name, e.error?.message])).toEqual([
      ['ok', undefined],
      ['bad', '~/.codex/config.toml: server "bad": "command" must be a string (got the number 3)'],
    ]);
  });
});

describe('readInputs', () => {
  it('reads VS Code inputs; skips those without an id', () => {
    expect(
      readInputs([
        { type: 'promptString', id: 'key', description: 'API key', password: true },
        { type: 'pickString', id: 'region', options: ['eu', { label: 'US', value: 'us' }], default: 'eu' },
        { description: 'no id' },
        'junk',
      ]),
    ).toEqual([
      { id: 'key', type: 'promptString', description: 'API key', password: true },
      { id: 'region', type: 'pickString', options: ['eu', 'us'], default: 'eu' },
    ]);
    expect(readInputs(undefined)).toEqual([]);
    expect(readInputs({})).toEqual([]);
  });
});
