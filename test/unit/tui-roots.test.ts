// The TUI's first roots (src/cli/commands/tui.ts initialRoots → runTui({ roots })): the
// --root flags win over the config entry's roots, as for the scripted commands.
import { describe, expect, it } from 'vitest';
import { initialRoots } from '../../src/cli/commands/tui.js';
import { UsageError } from '../../src/protocol/errors.js';

describe('initialRoots (the TUI)', () => {
  const configRoots = [{ uri: 'file:///srv/project', name: 'project' }];

  it('takes --root (paths resolved against cwd, file:// URIs kept) over the config entry’s roots', async () => {
    const roots = await initialRoots({ url: 'http://127.0.0.1:1/mcp', roots: configRoots }, { root: ['src', 'file:///tmp/x'] }, '/work/p');
    expect(roots).toEqual([
      { uri: 'file:///work/p/src', name: 'src' },
      { uri: 'file:///tmp/x', name: 'x' },
    ]);
  });

  it('falls back to the config entry’s roots, else none', async () => {
    expect(await initialRoots({ roots: configRoots }, {})).toEqual(configRoots);
    expect(await initialRoots({ url: 'http://127.0.0.1:1/mcp' }, {})).toBeUndefined();
  });

  it('a bad --root is a usage error', async () => {
    await expect(initialRoots({}, { root: ['https://example.com/'] })).rejects.toBeInstanceOf(UsageError);
  });
});
