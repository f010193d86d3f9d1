import { describe, expect, it } from 'vitest';
import { ConfigError, discoverServers, findServer, parseDotenv, resolveEntry, type ConfigInput, type ResolveContext } from '../../src/config/index.js';

const VSCODE = `{
  "inputs": [
    { "type": "promptString", "id": "api-key", "description": "Search API key", "password": true },
    { "type": "promptString", "id": "region", "description": "Region", "default": "eu" },
  ],
  "servers": {
    "stdio": {
      "command": "\${workspaceFolder}/bin/srv",
      "args": ["--home", "\${userHome}", "--key", "\${input:api-key}", "--again", "\${input:api-key}"],
      "env": { "TOKEN": "\${env:TOKEN}", "FROM_FILE": "entry wins" },
      "envFile": "\${workspaceFolder}/.env",
      "cwd": "srv",
    },
    "http": { "type": "http", "url": "https://\${env:HOST}/mcp", "headers": { "Authorization": "Bearer \${input:api-key}", "X-Region": "\${input:region}" } },
    "sse": { "type": "sse", "url": "http://127.0.0.1:8080/sse" },
    "ours": {
      "command": "c",
      "roots": ["\${workspaceFolder}", "data", "/abs", "file:///already/uri"],
      "oauth": { "clientId": "\${env:CLIENT_ID}", "clientSecret": "\${input:api-key}", "scopes": ["\${env:SCOPE}"], "callbackPort": 9000 },
    },
    "undeclared": { "command": "c", "args": ["\${input:other}"] },
    "badEnvFile": { "command": "c", "envFile": "missing.env" },
    "syntaxEnvFile": { "command": "c", "envFile": "broken.env" },
    "badUrl": { "url": "\${env:HOST}" },
    "ftp": { "type": "http", "url": "ftp://h/x" },
    "newline": { "url": "https://h", "headers": { "X-Token": "\${env:MULTILINE}" } },
    "badName": { "url": "https://h", "headers": { "Bad Name": "x" } },
    "unset": { "url": "https://h/\${env:UNSET}" },
    "invalid": { "command": 1 },
  },
}`;

const files: Record<string, string> = {
  '/w/app/.vscode/mcp.json': VSCODE,
  '/w/app/.env': '# comment\nFROM_FILE=file\nONLY_FILE="quoted value"\n',
  '/w/app/broken.env': 'GOOD=1\nthis is not dotenv\n',
};

function ctx(extra: Partial<ResolveContext> = {}): ResolveContext {
  return {
    cwd: '/w/app',
    home: '/home/ada',
    platform: 'linux',
    env: { TOKEN: 't', HOST: 'example.com', CLIENT_ID: 'cid', SCOPE: 'read', MULTILINE: 'a\nb' },
    readFile: (p) => files[p],
    configFile: '.vscode/mcp.json',
    ...extra,
  };
}

const resolve = (name: string, c: ResolveContext = ctx({ inputs: { 'api-key': 'K' } })) => resolveEntry(findServer(name, c).server, c);

async function failure(name: string, c?: ResolveContext): Promise<ConfigError> {
  try {
    await resolve(name, c);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error(`expected ${name} to fail`);
}

describe('resolveEntry: targets', () => {
  it('stdio: variables everywhere, cwd relative to the workspace folder, envFile under env', async () => {
    const r = await resolve('stdio');
    expect(r.target).toEqual({
      kind: 'stdio',
      command: '/w/app/bin/srv',
      args: ['--home', '/home/ada', '--key', 'K', '--again', 'K'],
      env: { FROM_FILE: 'entry wins', ONLY_FILE: 'quoted value', TOKEN: 't' },
      cwd: '/w/app/srv',
    });
    expect(r.source).toMatchObject({ client: 'vscode', scope: 'project', workspaceFolder: '/w/app' });
    expect(r.entry.command).toBe('${workspaceFolder}/bin/srv'); // the entry as written
  });

  it('http and sse', async () => {
    expect((await resolve('http')).target).toEqual({ kind: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer K', 'X-Region': 'eu' } });
    expect((await resolve('sse')).target).toEqual({ kind: 'sse', url: 'http://127.0.0.1:8080/sse', headers: {} });
  });

  it('our roots and oauth, substituted; relative roots resolved against the workspace folder', async () => {
    const r = await resolve('ours');
    expect(r.roots).toEqual(['/w/app', '/w/app/data', '/abs', 'file:///already/uri']);
    expect(r.oauth).toEqual({ clientId: 'cid', clientSecret: 'K', scopes: ['read'], callbackPort: 9000 });
  });
});

describe('resolveEntry: inputs', () => {
  it('asks once per input, with its declaration, when a prompt is given', async () => {
    const asked: ConfigInput[] = [];
    const c = ctx({ prompt: async (i) => (asked.push(i), `answer-${i.id}`) });
    const r = await resolve('stdio', c);
    expect(r.target).toMatchObject({ args: ['--home', '/home/ada', '--key', 'answer-api-key', '--again', 'answer-api-key'] });
    expect(asked).toEqual([{ id: 'api-key', type: 'promptString', description: 'Search API key', password: true }]);
    const h = await resolve('http', ctx({ prompt: async (i) => (asked.push(i), i.default ?? 'typed') }));
    expect(h.target).toMatchObject({ headers: { Authorization: 'Bearer typed', 'X-Region': 'eu' } });
    expect(asked.slice(1).map((i) => i.id)).toEqual(['api-key', 'region']);
  });

  it('a given value wins over asking', async () => {
    let asked = 0;
    const r = await resolve('http', ctx({ inputs: { 'api-key': 'given', region: 'us' }, prompt: async () => (asked++, 'typed') }));
    expect(r.target).toMatchObject({ headers: { Authorization: 'Bearer given', 'X-Region': 'us' } });
    expect(asked).toBe(0);
  });

  it('an input not declared in the file is still asked, masked', async () => {
    const asked: ConfigInput[] = [];
    const r = await resolve('undeclared', ctx({ prompt: async (i) => (asked.push(i), 'v') }));
    expect(r.target).toMatchObject({ args: ['v'] });
    expect(asked).toEqual([{ id: 'other', type: 'promptString', password: true }]);
  });

  it('non-interactive: the declared default, else a usage error naming the input and --config-input', async () => {
    const e = await failure('http', ctx());
    expect(e).toMatchObject({ code: 'MCPI_CONFIG_INPUT', inputId: 'api-key', server: 'http', file: '/w/app/.vscode/mcp.json' });
    expect(e.message).toBe(
      'server "http" (/w/app/.vscode/mcp.json), "headers.Authorization": ${input:api-key} (Search API key) has no value; pass it with --config-input api-key=VALUE (mcp-inspect asks for it only when stdin and stderr are terminals)',
    );
    // region has a default: only api-key is missing.
    const r = await resolve('http', ctx({ inputs: { 'api-key': 'K' } }));
    expect(r.target).toMatchObject({ headers: { 'X-Region': 'eu' } });
  });

  it('a prompt that fails aborts with its error', async () => {
    const boom = new Error('cancelled');
    await expect(resolve('http', ctx({ prompt: async () => Promise.reject(boom) }))).rejects.toBe(boom);
  });
});

describe('resolveEntry: errors', () => {
  it('an undefined variable names the server and field', async () => {
    const e = await failure('unset');
    expect(e).toMatchObject({ code: 'MCPI_CONFIG_VARIABLE', server: 'unset' });
    expect(e.message).toBe('server "unset" (/w/app/.vscode/mcp.json), "url": ${env:UNSET}: the environment variable UNSET is not set');
  });

  it('an envFile that is missing or not dotenv', async () => {
    expect((await failure('badEnvFile')).message).toBe('server "badEnvFile" (/w/app/.vscode/mcp.json), "envFile": /w/app/missing.env does not exist');
    const e = await failure('syntaxEnvFile');
    expect(e).toMatchObject({ code: 'MCPI_CONFIG_SYNTAX', file: '/w/app/broken.env', line: 2 });
    expect(e.message).toBe('/w/app/broken.env:2:1: not a KEY=VALUE line');
  });

  it('a url that is not http(s) after substitution', async () => {
    expect((await failure('badUrl')).message).toBe('server "badUrl" (/w/app/.vscode/mcp.json), "url": "example.com" is not an http(s) URL');
    expect((await failure('ftp')).message).toMatch(/"url": "ftp:\/\/h\/x" is not an http\(s\) URL/);
  });

  it('a header value a header cannot carry (not echoed), a bad header name', async () => {
    const e = await failure('newline');
    expect(e.message).toBe(
      'server "newline" (/w/app/.vscode/mcp.json), "headers.X-Token": the value has characters a header cannot carry (control characters, a newline or non-ASCII)',
    );
    expect(e.message).not.toContain('a\nb');
    expect((await failure('badName')).message).toMatch(/"headers.Bad Name": is not a valid header name/);
  });

  it('an invalid entry throws its own error', async () => {
    const c = ctx();
    const d = discoverServers(c);
    const invalid = d.entries.find((e) => e.name === 'invalid')!;
    await expect(resolveEntry(invalid, c)).rejects.toThrow(/server "invalid": "command" must be a string/);
  });
});

describe('parseDotenv', () => {
  it('reads the usual forms', () => {
    const text = [
      '# comment',
      '',
      'A=1',
      'export B = two words ',
      'C="line\\nbreak \\"q\\""',
      "D='literal \\n $x'",
      'E=value # trailing comment',
      'F=#not-a-comment',
      'G="multi',
      'line"',
      'H=',
    ].join('\r\n');
    expect(parseDotenv('\ufeff' + text, '/e')).toEqual({
      A: '1',
      B: 'two words',
      C: 'line\nbreak "q"',
      D: 'literal \\n $x',
      E: 'value',
      F: '#not-a-comment',
      G: 'multi\nline',
      H: '',
    });
  });

  it('errors name file and line', () => {
    expect(() => parseDotenv('A=1\n=2', '/e')).toThrow('/e:2:1: not a KEY=VALUE line');
    expect(() => parseDotenv('A="open', '/e', '.env')).toThrow('.env:1:3: the quoted value of A is not closed');
  });
});
