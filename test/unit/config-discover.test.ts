import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  discoverServers,
  findServer,
  readConfigFile,
  resolveEntry,
  shadowWarning,
  type ConfigContext,
  type Discovery,
} from '../../src/config/index.js';
import { UsageError } from '../../src/protocol/errors.js';
import { removeTree } from '../helpers/files.js';

let root: string;
let home: string;
let project: string;

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** A fresh HOME holding the configs of every client, and a project folder with its own. */
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'mcpi-config-'));
  home = join(root, 'home');
  project = join(root, 'work', 'app');
  mkdirSync(project, { recursive: true });

  write(
    join(home, '.config', 'Claude', 'claude_desktop_config.json'),
    JSON.stringify({
      mcpServers: {
        filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
        github: { command: 'docker', args: ['run', 'ghcr.io/github/github-mcp-server'], env: { GITHUB_TOKEN: 'x' } },
      },
      globalShortcut: 'Ctrl+Space',
    }),
  );
  write(
    join(home, '.cursor', 'mcp.json'),
    `{
  // Cursor allows comments
  "mcpServers": {
    "linear": { "url": "https://mcp.linear.app/sse", "type": "sse" },
    "github": { "url": "https://api.githubcopilot.com/mcp/", "headers": { "Authorization": "Bearer \${env:GH_TOKEN}" } },
  },
}`,
  );
  write(
    join(home, '.config', 'Code', 'User', 'mcp.json'),
    `{
  "inputs": [
    { "type": "promptString", "id": "api-key", "description": "Search API key", "password": true },
  ],
  /* the user's servers */
  "servers": {
    "search": {
      "type": "http",
      "url": "https://search.example/mcp",
      "headers": { "Authorization": "Bearer \${input:api-key}" }, // trailing comma next
    },
    "notes": { "command": "node", "args": ["\${userHome}/notes/server.js"], "env": { "USER_NAME": "\${env:USER_NAME}" } },
  },
}`,
  );
  write(
    join(home, '.codeium', 'windsurf', 'mcp_config.json'),
    JSON.stringify({ mcpServers: { deepwiki: { serverUrl: 'https://mcp.deepwiki.com/mcp' }, old: { command: 'old-server', disabled: true } } }),
  );
  write(
    join(home, '.codex', 'config.toml'),
    `model = "o4-mini"

[mcp_servers.docs]
command = "docs-mcp"
args = ["--stdio"]

[mcp_servers.docs.env]
LOG = "debug"

[mcp_servers.remote]
url = "https://remote.example/mcp"
bearer_token_env_var = "REMOTE_TOKEN"

[mcp_servers.off]
command = "off"
enabled = false
`,
  );
  write(
    join(home, '.claude.json'),
    JSON.stringify({
      numStartups: 3,
      mcpServers: {
        memory: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
        github: { type: 'http', url: 'https://user.example/mcp' },
      },
      projects: {
        [project]: { mcpServers: { local: { command: 'local-server' } }, disabledMcpjsonServers: ['declined'] },
        '/some/other/project': { mcpServers: { elsewhere: { command: 'nope' } } },
      },
    }),
  );
  write(
    join(project, '.mcp.json'),
    JSON.stringify({ mcpServers: { github: { type: 'stdio', command: 'gh-mcp', args: ['--repo', '${workspaceFolder}'] }, declined: { command: 'x' } } }),
  );
  write(join(project, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { 'cursor-project': { command: 'cp', disabled: true } } }));
  write(join(project, '.vscode', 'mcp.json'), `{ "servers": { "memory": { "command": "project-memory" } } }`);
});

afterAll(() => removeTree(root));

function ctx(extra: Partial<ConfigContext> = {}): ConfigContext {
  return { cwd: project, home, platform: 'linux', env: { USER_NAME: 'ada', GH_TOKEN: 'gh-123', REMOTE_TOKEN: 'rt' }, readFile: readConfigFile, ...extra };
}

const rows = (d: Discovery) =>
  d.entries.map(
    (e) =>
      `${e.name} ${e.source.client}/${e.source.scope}${e.disabled ? ' disabled' : ''}${e.shadowedBy ? ` <${e.shadowedBy.client}/${e.shadowedBy.scope}` : ''}`,
  );

describe('discoverServers: a fresh HOME with every client', () => {
  it('lists every server, project first, then user, in client order', () => {
    const d = discoverServers(ctx());
    expect(d.errors).toEqual([]);
    expect(rows(d)).toEqual([
      'local claude-code/project',
      'github claude-code/project',
      'declined claude-code/project disabled',
      'cursor-project cursor/project disabled',
      'memory vscode/project',
      'memory claude-code/user <vscode/project',
      'github claude-code/user <claude-code/project',
      'filesystem claude-desktop/user',
      'github claude-desktop/user <claude-code/project',
      'linear cursor/user',
      'github cursor/user <claude-code/project',
      'search vscode/user',
      'notes vscode/user',
      'deepwiki windsurf/user',
      'old windsurf/user disabled',
      'docs codex/user',
      'remote codex/user',
      'off codex/user disabled',
    ]);
  });

  it('records where each came from: file, scope, workspace folder, section of ~/.claude.json', () => {
    const d = discoverServers(ctx());
    const local = d.entries.find((e) => e.name === 'local')!;
    expect(local.source).toEqual({
      client: 'claude-code',
      file: join(home, '.claude.json'),
      scope: 'project',
      workspaceFolder: project,
      section: `projects[${JSON.stringify(project)}].mcpServers`,
    });
    const memUser = d.entries.find((e) => e.name === 'memory' && e.source.scope === 'user')!;
    expect(memUser.source.section).toBe('mcpServers');
    expect(memUser.source.workspaceFolder).toBe(project); // a user config's ${workspaceFolder} is the cwd
    expect(d.entries.find((e) => e.name === 'filesystem')!.source.file).toBe(join(home, '.config', 'Claude', 'claude_desktop_config.json'));
    expect(d.entries.some((e) => e.name === 'elsewhere')).toBe(false); // another project's servers stay out
  });

  it('normalizes the shapes: Windsurf serverUrl, type sse, Codex tables', () => {
    const d = discoverServers(ctx());
    const by = (n: string, client?: string) => d.entries.find((e) => e.name === n && (!client || e.source.client === client))!.entry!;
    expect(by('deepwiki')).toEqual({ transport: 'http', url: 'https://mcp.deepwiki.com/mcp' });
    expect(by('linear')).toEqual({ transport: 'sse', type: 'sse', url: 'https://mcp.linear.app/sse' });
    expect(by('docs')).toEqual({ transport: 'stdio', command: 'docs-mcp', args: ['--stdio'], env: { LOG: 'debug' } });
    expect(by('remote')).toEqual({ transport: 'http', url: 'https://remote.example/mcp', headers: { Authorization: 'Bearer ${env:REMOTE_TOKEN}' } });
    expect(by('off')).toMatchObject({ disabled: true });
    expect(d.entries.find((e) => e.name === 'search')!.inputs).toEqual([
      { id: 'api-key', type: 'promptString', description: 'Search API key', password: true },
    ]);
  });

  it('every discovered entry resolves (with the input given)', async () => {
    const c = { ...ctx(), inputs: { 'api-key': 'k-1' } };
    const d = discoverServers(c);
    const search = await resolveEntry(
      d.entries.find((e) => e.name === 'search')!,
      c,
    );
    expect(search.target).toEqual({ kind: 'http', url: 'https://search.example/mcp', headers: { Authorization: 'Bearer k-1' } });
    const notes = await resolveEntry(
      d.entries.find((e) => e.name === 'notes')!,
      c,
    );
    expect(notes.target).toEqual({ kind: 'stdio', command: 'node', args: [`${home}/notes/server.js`], env: { USER_NAME: 'ada' } });
    const cursorGithub = await resolveEntry(
      d.entries.find((e) => e.name === 'github' && e.source.client === 'cursor')!,
      c,
    );
    expect(cursorGithub.target).toEqual({ kind: 'http', url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer gh-123' } });
    for (const e of d.entries) await expect(resolveEntry(e, c)).resolves.toBeTruthy();
  });
});

describe('findServer', () => {
  it('the first in the search order wins, and names what it shadows', async () => {
    const found = findServer('github', ctx());
    expect(found.server.source.client).toBe('claude-code');
    expect(found.server.source.file).toBe(join(project, '.mcp.json'));
    expect(found.shadows.map((s) => `${s.source.client}/${s.source.scope}`)).toEqual(['claude-code/user', 'claude-desktop/user', 'cursor/user']);
    expect(shadowWarning(found, ctx())).toBe(
      `server "github" from ${join(project, '.mcp.json')} (Claude Code, project) is used; it shadows ~/.claude.json (Claude Code, user), ~/.config/Claude/claude_desktop_config.json (Claude Desktop, user), ~/.cursor/mcp.json (Cursor, user)`,
    );
    const r = await resolveEntry(found.server, ctx());
    expect(r.target).toEqual({ kind: 'stdio', command: 'gh-mcp', args: ['--repo', project], env: {} });
  });

  it('a project entry wins over a user one of another client (VS Code project before Claude Code user)', () => {
    expect(findServer('memory', ctx()).server.source).toMatchObject({ client: 'vscode', scope: 'project' });
    expect(shadowWarning(findServer('filesystem', ctx()), ctx())).toBeUndefined();
  });

  it('a disabled entry is used when named, if it is the only one of its name', () => {
    const found = findServer('old', ctx());
    expect(found.server.disabled).toBe(true);
    expect(found.server.entry!.command).toBe('old-server');
    expect(findServer('declined', ctx()).server.disabled).toBe(true); // declined in Claude Code's projects map
  });

  it('an enabled entry wins over a disabled one of the same name that comes first', () => {
    write(join(root, 'p2', '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { filesystem: { command: 'off-fs', disabled: true } } }));
    const c = ctx({ cwd: join(root, 'p2') });
    const found = findServer('filesystem', c);
    expect(found.server.source.client).toBe('claude-desktop');
    expect(found.shadows.map((s) => [s.source.client, s.disabled])).toEqual([['cursor', true]]);
    expect(shadowWarning(found, c)).toContain('[disabled]');
    const listed = discoverServers(c).entries.find((e) => e.name === 'filesystem' && e.source.client === 'cursor')!;
    expect(listed.shadowedBy?.client).toBe('claude-desktop');
  });

  it('an unknown name lists the names found', () => {
    let err: unknown;
    try {
      findServer('gthub', ctx());
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect(err).toBeInstanceOf(UsageError); // exit 64
    expect((err as ConfigError).code).toBe('MCPI_CONFIG_UNKNOWN_SERVER');
    expect((err as Error).message).toMatch(
      /^no server named "gthub" in the config files searched; it has: local, github, declined, cursor-project, memory, filesystem/,
    );
  });

  it('no config at all: says where it looked', () => {
    const empty = join(root, 'empty-home');
    mkdirSync(empty, { recursive: true });
    const elsewhere = join(root, 'empty-project');
    mkdirSync(elsewhere, { recursive: true });
    expect(() => findServer('x', ctx({ home: empty, cwd: elsewhere }))).toThrow(
      `no server named "x" in the config files searched; no servers were found (searched: ~/.claude.json, ${elsewhere}/.mcp.json, ${elsewhere}/.cursor/mcp.json, ${elsewhere}/.vscode/mcp.json, ~/.config/Claude/claude_desktop_config.json, ~/.cursor/mcp.json, ~/.config/Code/User/mcp.json, ~/.codeium/windsurf/mcp_config.json, ~/.codex/config.toml)`,
    );
  });

  it('no name without an explicit file is an error listing the servers', () => {
    expect(() => findServer(undefined, ctx())).toThrow(/^no server given; pick one with --server NAME \(local, github/);
  });
});

describe('a broken file is reported, not fatal for the others', () => {
  it('bad JSONC in one file: its error has file, line and column; the others are listed', () => {
    const h = join(root, 'broken-home');
    write(join(h, '.cursor', 'mcp.json'), '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}\n');
    write(join(h, '.codeium', 'windsurf', 'mcp_config.json'), JSON.stringify({ mcpServers: { fine: { command: 'ok' } } }));
    const c = ctx({ home: h, cwd: h });
    const d = discoverServers(c);
    expect(d.entries.map((e) => e.name)).toEqual(['fine']);
    expect(d.errors).toHaveLength(1);
    expect(d.errors[0]).toMatchObject({ code: 'MCPI_CONFIG_SYNTAX', file: join(h, '.cursor', 'mcp.json'), line: 4, column: 5 });
    expect(d.errors[0].message).toBe('~/.cursor/mcp.json:4:5: not valid JSON: a comma was expected');
    const found = findServer('fine', c);
    expect(found.errors.map((e) => e.code)).toEqual(['MCPI_CONFIG_SYNTAX']); // for a warning
    expect(() => findServer('a', c)).toThrow(
      /no server named "a" in the config files searched; it has: fine; a config file could not be read: ~\/\.cursor\/mcp\.json:4:5/,
    );
  });

  it('an invalid entry is listed with its error and fails only when chosen', () => {
    const h = join(root, 'invalid-entry-home');
    write(join(h, '.cursor', 'mcp.json'), '{\n  "mcpServers": {\n    "bad": { "command": "x", "args": "--flag" },\n    "good": { "command": "y" }\n  }\n}');
    const c = ctx({ home: h, cwd: h });
    const d = discoverServers(c);
    expect(d.entries.map((e) => [e.name, !!e.error])).toEqual([
      ['bad', true],
      ['good', false],
    ]);
    expect(d.errors[0].message).toBe('~/.cursor/mcp.json:3:38: server "bad": "args" must be an array of strings (got the text "--flag")');
    expect(findServer('good', c).server.entry!.command).toBe('y');
    expect(() => findServer('bad', c)).toThrow(/"args" must be an array of strings/);
  });

  it('a servers map that is not an object is a shape error', () => {
    const h = join(root, 'shape-home');
    write(join(h, '.cursor', 'mcp.json'), '{ "mcpServers": [] }');
    const d = discoverServers(ctx({ home: h, cwd: h }));
    expect(d.errors[0].message).toBe('~/.cursor/mcp.json:1:17: "mcpServers" must be an object of servers (got an array)');
  });

  it('an unreadable file (a folder) is a read error', () => {
    const h = join(root, 'dir-home');
    mkdirSync(join(h, '.cursor', 'mcp.json'), { recursive: true });
    const d = discoverServers(ctx({ home: h, cwd: h }));
    expect(d.errors[0]).toMatchObject({ code: 'MCPI_CONFIG_READ' });
    expect(d.errors[0].message).toBe('cannot read ~/.cursor/mcp.json: it is a folder');
  });

  it('an empty or comment-only discovered file holds no servers and is no error', () => {
    const h = join(root, 'empty-files-home');
    write(join(h, '.cursor', 'mcp.json'), '');
    write(join(h, '.codeium', 'windsurf', 'mcp_config.json'), '// nothing yet\n');
    write(join(h, '.claude.json'), JSON.stringify({ numStartups: 1 }));
    const d = discoverServers(ctx({ home: h, cwd: h }));
    expect(d).toMatchObject({ entries: [], errors: [] });
    expect(d.searched.filter((s) => s.found).map((s) => s.client)).toEqual(['claude-code', 'claude-code', 'cursor', 'windsurf']);
  });
});

describe('an explicit file replaces discovery', () => {
  it('--config FILE: only that file; relative to the cwd; the only server needs no name', () => {
    write(join(project, 'conf', 'one.json'), '{ "mcpServers": { "only": { "command": "one" } } }');
    const c = ctx({ configFile: 'conf/one.json' });
    const d = discoverServers(c);
    expect(d.explicit).toEqual({ file: join(project, 'conf', 'one.json'), via: '--config' });
    expect(rows(d)).toEqual(['only file/project']);
    expect(d.entries[0].source.workspaceFolder).toBe(join(project, 'conf'));
    expect(findServer(undefined, c).server.name).toBe('only');
  });

  it('$MCP_INSPECT_CONFIG does the same; --config wins over it', () => {
    write(join(project, 'conf', 'two.json'), '{ "servers": { "a": { "command": "a" }, "b": { "url": "http://127.0.0.1:1/mcp" } } }');
    const viaEnv = ctx({ env: { MCP_INSPECT_CONFIG: join(project, 'conf', 'two.json') } });
    expect(discoverServers(viaEnv).explicit?.via).toBe('MCP_INSPECT_CONFIG');
    expect(rows(discoverServers(viaEnv))).toEqual(['a file/project', 'b file/project']);
    expect(() => findServer(undefined, viaEnv)).toThrow(/two\.json has 2 servers; pick one with --server NAME \(a, b\)/);
    const both = ctx({ configFile: 'conf/one.json', env: { MCP_INSPECT_CONFIG: join(project, 'conf', 'two.json') } });
    expect(rows(discoverServers(both))).toEqual(['only file/project']);
  });

  it('a file inside .vscode has the project folder as its workspace folder', async () => {
    const c = ctx({ configFile: join(project, '.vscode', 'mcp.json') });
    const d = discoverServers(c);
    expect(d.entries[0].source).toMatchObject({ client: 'vscode', scope: 'project', workspaceFolder: project });
    write(join(root, 'elsewhere', '.vscode', 'mcp.json'), '{ "servers": { "w": { "command": "${workspaceFolder}/bin/w" } } }');
    const other = ctx({ configFile: join(root, 'elsewhere', '.vscode', 'mcp.json') });
    const w = await resolveEntry(findServer('w', other).server, other);
    expect(w.target).toMatchObject({ command: join(root, 'elsewhere', 'bin', 'w') });
  });

  it('a known user file keeps its client and scope; ~/.claude.json keeps both sections', () => {
    expect(rows(discoverServers(ctx({ configFile: join(home, '.cursor', 'mcp.json') })))).toEqual(['linear cursor/user', 'github cursor/user']);
    expect(rows(discoverServers(ctx({ configFile: join(home, '.claude.json') })))).toEqual([
      'local claude-code/project',
      'memory claude-code/user',
      'github claude-code/user',
    ]);
    expect(rows(discoverServers(ctx({ configFile: join(home, '.codex', 'config.toml') })))).toEqual([
      'docs codex/user',
      'remote codex/user',
      'off codex/user disabled',
    ]);
  });

  it('a TOML file of no known client is read as Codex tables', () => {
    write(join(project, 'conf', 'servers.toml'), '[mcp_servers.t]\ncommand = "t"\n');
    expect(rows(discoverServers(ctx({ configFile: 'conf/servers.toml' })))).toEqual(['t file/project']);
  });

  it('errors of an explicit file are fatal for findServer', () => {
    expect(() => findServer('x', ctx({ configFile: 'conf/missing.json' }))).toThrow(
      `cannot read --config ${join(project, 'conf', 'missing.json')}: no such file`,
    );
    expect(() => findServer('x', ctx({ env: { MCP_INSPECT_CONFIG: join(project, 'nope.json') } }))).toThrow(
      /cannot read \$MCP_INSPECT_CONFIG .*nope\.json: no such file/,
    );
    write(join(project, 'conf', 'none.json'), '{ "other": 1 }');
    expect(() => findServer('x', ctx({ configFile: 'conf/none.json' }))).toThrow(/none\.json has neither "mcpServers" nor "servers"/);
    write(join(project, 'conf', 'empty.json'), '  ');
    expect(() => findServer('x', ctx({ configFile: 'conf/empty.json' }))).toThrow(/empty\.json is empty/);
    write(join(project, 'conf', 'array.json'), '[1]');
    expect(() => findServer('x', ctx({ configFile: 'conf/array.json' }))).toThrow(/the file must hold an object \(got an array\)/);
    write(join(project, 'conf', 'bad.toml'), '[mcp_servers.a\ncommand = "x"\n');
    let err: ConfigError | undefined;
    try {
      findServer('a', ctx({ configFile: 'conf/bad.toml' }));
    } catch (e) {
      err = e as ConfigError;
    }
    expect(err).toMatchObject({ code: 'MCPI_CONFIG_SYNTAX', line: 1 });
    expect(err!.message).toMatch(/bad\.toml:1:\d+: not valid TOML: /);
    expect(() => findServer('nope', ctx({ configFile: 'conf/one.json' }))).toThrow(/^no server named "nope" in .*one\.json; it has: only$/);
  });

  it('server names keep the order written, integer-like ones too', () => {
    write(join(project, 'conf', 'order.json'), '{ "mcpServers": { "zeta": { "command": "z" }, "10": { "command": "t" }, "alpha": { "command": "a" } } }');
    expect(discoverServers(ctx({ configFile: 'conf/order.json' })).entries.map((e) => e.name)).toEqual(['zeta', '10', 'alpha']);
  });
});
