import { describe, expect, it } from 'vitest';
import { rootFromArg, rootsFromConfig } from '../../src/protocol/roots.js';

describe('rootFromArg', () => {
  it('resolves a relative path against cwd and percent-encodes it', () => {
    expect(rootFromArg('src', '/home/u/my project')).toEqual({ uri: 'file:///home/u/my%20project/src', name: 'src' });
    expect(rootFromArg('/tmp/x/', '/ignored')).toEqual({ uri: 'file:///tmp/x', name: 'x' });
    expect(rootFromArg('/', '/')).toEqual({ uri: 'file:///', name: '/' });
  });
  it('keeps a file:// URI as given', () => {
    expect(rootFromArg('file:///home/u/repo', '/x')).toEqual({ uri: 'file:///home/u/repo', name: 'repo' });
  });
  it('refuses other schemes and empty input', () => {
    expect(() => rootFromArg('https://example.com', '/')).toThrow(/file:\/\/ URI or a path/);
    expect(() => rootFromArg('  ', '/')).toThrow(/needs a path/);
    expect(() => rootFromArg('file://host/share', '/')).toThrow(/not a usable file/);
  });
});

describe('rootsFromConfig', () => {
  it('takes strings and {uri, name} objects relative to the config directory', () => {
    expect(rootsFromConfig(['a', { uri: 'file:///b', name: 'Bee' }], '/cfg')).toEqual([
      { uri: 'file:///cfg/a', name: 'a' },
      { uri: 'file:///b', name: 'Bee' },
    ]);
  });
  it('names the bad entry', () => {
    expect(() => rootsFromConfig(['ok', 3], '/')).toThrow(/roots\[1\]/);
    expect(() => rootsFromConfig('x', '/')).toThrow(/must be an array/);
  });
});
