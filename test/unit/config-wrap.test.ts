import { describe, expect, it } from 'vitest';
import { isWrapped, serversPath, unwrapped, withCommandLine, wrapped } from '../../src/config/wrap.js';
import { ConfigError, type ConfigSource } from '../../src/config/types.js';

const src = (over: Partial<ConfigSource>): ConfigSource => ({
  client: 'claude-desktop',
  file: '/x/claude_desktop_config.json',
  scope: 'user',
  workspaceFolder: '/x',
  ...over,
});

describe('servers --wrap / --unwrap', () => {
  it('routes a stdio entry through the proxy and back', () => {
    const w = wrapped('weather', { transport: 'stdio', command: 'node', args: ['server.js', '--port', '1'] }, '/tmp/w.ndjson');
    expect(w).toEqual({ command: 'mcp-inspect', args: ['proxy', '--name', 'weather', '--record', '/tmp/w.ndjson', '--', 'node', 'server.js', '--port', '1'] });
    expect(isWrapped(w)).toBe(true);
    expect(unwrapped('weather', { transport: 'stdio', ...w })).toEqual({ command: 'node', args: ['server.js', '--port', '1'] });
  });

  it('refuses HTTP entries, wrapping twice and unwrapping what is not wrapped', () => {
    expect(() => wrapped('remote', { transport: 'http', url: 'https://x/mcp' })).toThrow(/HTTP server/);
    expect(() => wrapped('w', { transport: 'stdio', command: 'mcp-inspect', args: ['proxy', '--', 'node'] })).toThrow(/already runs through/);
    expect(() => unwrapped('w', { transport: 'stdio', command: 'node', args: [] })).toThrow(ConfigError);
  });

  it('edits the JSON in place, keeping comments, for each client layout', () => {
    const text = '{\n  // my servers\n  "mcpServers": {\n    "weather": { "command": "node", "args": ["s.js"], "env": { "K": "v" } }\n  }\n}\n';
    const out = withCommandLine(text, serversPath(src({}), text), 'weather', { command: 'mcp-inspect', args: ['proxy', '--', 'node', 's.js'] });
    expect(out).toContain('// my servers');
    expect(JSON.parse(out.replace('// my servers', '')).mcpServers.weather).toEqual({
      command: 'mcp-inspect',
      args: ['proxy', '--', 'node', 's.js'],
      env: { K: 'v' },
    });
    expect(serversPath(src({ client: 'vscode' }), '{}')).toEqual(['servers']);
    expect(serversPath(src({ client: 'claude-code', section: 'projects["/p"].mcpServers' }), '{}')).toEqual(['projects', '/p', 'mcpServers']);
    expect(serversPath(src({ client: 'file' }), '{"servers":{}}')).toEqual(['servers']);
    expect(() => serversPath(src({ client: 'codex', file: '/x/config.toml' }), '')).toThrow(/TOML/);
  });
});
