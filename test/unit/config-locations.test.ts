import { describe, expect, it } from 'vitest';
import { configLocations, discoverServers, explicitLocations, findServer, resolveEntry, showPath, type ConfigContext } from '../../src/config/index.js';

const base = { cwd: '/work/app', home: '/home/ada', platform: 'linux' as NodeJS.Platform, env: {} };
const files = (loc: ReturnType<typeof configLocations>) =>
  loc.map((l) => `${l.client} ${l.scope} ${l.file}${l.format === 'claude-project' ? ' (projects)' : ''}`);

/** An in-memory file system, so Windows and macOS paths are tested on any OS. */
function memory(map: Record<string, string>): ConfigContext['readFile'] {
  return (p) => (Object.hasOwn(map, p) ? map[p] : undefined);
}

describe('configLocations', () => {
  it('Linux: ~/.config for Claude Desktop and VS Code, in the documented order', () => {
    expect(files(configLocations(base))).toEqual([
      'claude-code project /home/ada/.claude.json (projects)',
      'claude-code project /work/app/.mcp.json',
      'cursor project /work/app/.cursor/mcp.json',
      'vscode project /work/app/.vscode/mcp.json',
      'claude-code user /home/ada/.claude.json',
      'claude-desktop user /home/ada/.config/Claude/claude_desktop_config.json',
      'cursor user /home/ada/.cursor/mcp.json',
      'vscode user /home/ada/.config/Code/User/mcp.json',
      'windsurf user /home/ada/.codeium/windsurf/mcp_config.json',
      'codex user /home/ada/.codex/config.toml',
    ]);
  });

  it('Linux: $XDG_CONFIG_HOME when absolute', () => {
    const l = configLocations({ ...base, env: { XDG_CONFIG_HOME: '/xdg' } });
    expect(l.find((x) => x.client === 'claude-desktop')!.file).toBe('/xdg/Claude/claude_desktop_config.json');
    expect(l.find((x) => x.client === 'vscode' && x.scope === 'user')!.file).toBe('/xdg/Code/User/mcp.json');
    expect(configLocations({ ...base, env: { XDG_CONFIG_HOME: 'relative' } }).find((x) => x.client === 'claude-desktop')!.file).toBe(
      '/home/ada/.config/Claude/claude_desktop_config.json',
    );
  });

  it('macOS: ~/Library/Application Support', () => {
    const l = configLocations({ ...base, platform: 'darwin', home: '/Users/ada' });
    expect(l.find((x) => x.client === 'claude-desktop')!.file).toBe('/Users/ada/Library/Application Support/Claude/claude_desktop_config.json');
    expect(l.find((x) => x.client === 'vscode' && x.scope === 'user')!.file).toBe('/Users/ada/Library/Application Support/Code/User/mcp.json');
  });

  it('Windows: %APPDATA% (or its default), backslashes', () => {
    const win = { cwd: 'C:\\src\\app', home: 'C:\\Users\\ada', platform: 'win32' as NodeJS.Platform, env: { APPDATA: 'D:\\Roaming' } };
    expect(files(configLocations(win))).toEqual([
      'claude-code project C:\\Users\\ada\\.claude.json (projects)',
      'claude-code project C:\\src\\app\\.mcp.json',
      'cursor project C:\\src\\app\\.cursor\\mcp.json',
      'vscode project C:\\src\\app\\.vscode\\mcp.json',
      'claude-code user C:\\Users\\ada\\.claude.json',
      'claude-desktop user D:\\Roaming\\Claude\\claude_desktop_config.json',
      'cursor user C:\\Users\\ada\\.cursor\\mcp.json',
      'vscode user D:\\Roaming\\Code\\User\\mcp.json',
      'windsurf user C:\\Users\\ada\\.codeium\\windsurf\\mcp_config.json',
      'codex user C:\\Users\\ada\\.codex\\config.toml',
    ]);
    expect(configLocations({ ...win, env: {} }).find((x) => x.client === 'claude-desktop')!.file).toBe(
      'C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    );
  });

  it('$CLAUDE_CONFIG_DIR and $CODEX_HOME move those files', () => {
    const l = configLocations({ ...base, env: { CLAUDE_CONFIG_DIR: '/cfg/claude', CODEX_HOME: '/cfg/codex' } });
    expect(l.filter((x) => x.client === 'claude-code').map((x) => x.file)).toEqual([
      '/cfg/claude/.claude.json',
      '/work/app/.mcp.json',
      '/cfg/claude/.claude.json',
    ]);
    expect(l.find((x) => x.client === 'codex')!.file).toBe('/cfg/codex/config.toml');
  });

  it('run from the home folder, ~/.cursor/mcp.json is listed once, as the user file', () => {
    const l = configLocations({ ...base, cwd: '/home/ada' });
    expect(l.filter((x) => x.file === '/home/ada/.cursor/mcp.json').map((x) => x.scope)).toEqual(['user']);
    expect(l.filter((x) => x.file === '/home/ada/.claude.json').map((x) => x.scope)).toEqual(['project', 'user']); // two sections of one file
  });
});

describe('explicitLocations', () => {
  it('a searched file keeps its client, scope and format', () => {
    expect(explicitLocations('/home/ada/.codeium/windsurf/mcp_config.json', base)).toEqual([
      { client: 'windsurf', scope: 'user', file: '/home/ada/.codeium/windsurf/mcp_config.json', format: 'mcpServers', workspaceFolder: '/work/app' },
    ]);
    expect(explicitLocations('.vscode/mcp.json', base)).toEqual([
      { client: 'vscode', scope: 'project', file: '/work/app/.vscode/mcp.json', format: 'vscode', workspaceFolder: '/work/app' },
    ]);
  });

  it('another file is a project file of its folder (the parent of .vscode, .cursor…)', () => {
    expect(explicitLocations('../other/.cursor/mcp.json', base)[0]).toMatchObject({
      client: 'file',
      scope: 'project',
      file: '/work/other/.cursor/mcp.json',
      workspaceFolder: '/work/other',
      format: 'any',
    });
    expect(explicitLocations('/etc/mcp/servers.json', base)[0]).toMatchObject({ workspaceFolder: '/etc/mcp' });
    expect(explicitLocations('/backup/.claude.json', base).map((l) => l.format)).toEqual(['claude-project', 'claude-user']);
  });

  it('macOS and Windows compare paths case-insensitively', () => {
    const mac = { ...base, platform: 'darwin' as NodeJS.Platform, home: '/Users/ada' };
    expect(explicitLocations('/users/ADA/.cursor/mcp.json', mac)[0]).toMatchObject({ client: 'cursor', scope: 'user' });
  });
});

describe('Windows and macOS, through an in-memory file system', () => {
  it('Windows: Claude Desktop under %APPDATA%, the projects map keyed with forward slashes', async () => {
    const ctx: ConfigContext = {
      cwd: 'C:\\src\\app',
      home: 'C:\\Users\\ada',
      platform: 'win32',
      env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming', Path: 'C:\\bin', userprofile: 'C:\\Users\\ada' },
      readFile: memory({
        'C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json': JSON.stringify({
          mcpServers: { fs: { command: 'npx.cmd', args: ['${env:USERPROFILE}${/}docs', '${pathSeparator}'] } },
        }),
        'C:\\Users\\ada\\.claude.json': JSON.stringify({ projects: { 'C:/src/app': { mcpServers: { local: { command: 'local.exe', cwd: 'tools' } } } } }),
      }),
    };
    const d = discoverServers(ctx);
    expect(d.errors).toEqual([]);
    expect(d.entries.map((e) => `${e.name} ${e.source.client} ${e.source.scope}`)).toEqual(['local claude-code project', 'fs claude-desktop user']);
    const fs = await resolveEntry(findServer('fs', ctx).server, ctx);
    expect(fs.target).toEqual({ kind: 'stdio', command: 'npx.cmd', args: ['C:\\Users\\ada\\docs', '\\'], env: {} }); // env names are case-insensitive on Windows
    const local = await resolveEntry(findServer('local', ctx).server, ctx);
    expect(local.target).toMatchObject({ cwd: 'C:\\src\\app\\tools' });
    expect(showPath('C:\\Users\\ada\\.claude.json', ctx)).toBe('~\\.claude.json');
  });

  it('macOS: Claude Desktop and VS Code under ~/Library/Application Support', () => {
    const ctx: ConfigContext = {
      cwd: '/Users/ada/src',
      home: '/Users/ada',
      platform: 'darwin',
      env: {},
      readFile: memory({
        '/Users/ada/Library/Application Support/Claude/claude_desktop_config.json': '{"mcpServers":{"a":{"command":"a"}}}',
        '/Users/ada/Library/Application Support/Code/User/mcp.json': '{"servers":{"b":{"type":"sse","url":"http://127.0.0.1:9/sse"}}}',
      }),
    };
    expect(discoverServers(ctx).entries.map((e) => `${e.name} ${e.source.client}`)).toEqual(['a claude-desktop', 'b vscode']);
  });

  it('a read that fails for another reason than a missing file is reported', () => {
    const ctx: ConfigContext = {
      ...base,
      readFile: (p) => {
        if (p.endsWith('mcp_config.json')) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
        return undefined;
      },
    };
    const d = discoverServers(ctx);
    expect(d.errors.map((e) => e.message)).toEqual(['cannot read ~/.codeium/windsurf/mcp_config.json: permission denied']);
    expect(d.searched.find((s) => s.client === 'windsurf')!.found).toBe(true);
  });
});
