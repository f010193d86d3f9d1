// The spawned server's environment (issue 19 point 15): the SDK's default set, the proxy
// variables in either case, the configured env over them; --inherit-env passes everything.
import { describe, expect, it } from 'vitest';
import { spawnEnv } from '../../src/transport/spawn-env.js';

const BASE = {
  HOME: '/home/u',
  LOGNAME: 'u',
  PATH: '/usr/bin',
  SHELL: '/bin/bash',
  TERM: 'xterm',
  USER: 'u',
  TMUX: '/tmp/tmux-0/default,1,0',
  AWS_SECRET_ACCESS_KEY: 'secret',
  HTTPS_PROXY: 'http://proxy:3128',
  http_proxy: 'http://proxy:3128',
  no_proxy: 'localhost',
  Http_Proxy: 'mixed-case is neither spelling',
  BASH_FUNC_x: '() { :; }',
};

describe('spawnEnv', () => {
  it("passes the SDK's POSIX default set and the proxy variables, nothing else", () => {
    expect(spawnEnv({}, { base: BASE, platform: 'linux' })).toEqual({
      HOME: '/home/u',
      LOGNAME: 'u',
      PATH: '/usr/bin',
      SHELL: '/bin/bash',
      TERM: 'xterm',
      USER: 'u',
      HTTPS_PROXY: 'http://proxy:3128',
      http_proxy: 'http://proxy:3128',
      no_proxy: 'localhost',
    });
  });

  it('puts the configured env over the defaults', () => {
    const env = spawnEnv({ PATH: '/opt/bin', API_KEY: 'k' }, { base: BASE, platform: 'linux' });
    expect(env.PATH).toBe('/opt/bin');
    expect(env.API_KEY).toBe('k');
    expect(env.TMUX).toBeUndefined();
  });

  it('skips a default whose value is a shell function, as the SDK does', () => {
    expect(spawnEnv({}, { base: { PATH: '() { evil; }', HOME: '/h' }, platform: 'linux' })).toEqual({ HOME: '/h' });
  });

  it("uses the SDK's Windows list there, matching names in any case", () => {
    const env = spawnEnv({}, { base: { Path: 'C:\\bin', SystemRoot: 'C:\\Windows', USERPROFILE: 'C:\\u', HOME: 'x', https_proxy: 'p' }, platform: 'win32' });
    expect(env).toEqual({ Path: 'C:\\bin', SystemRoot: 'C:\\Windows', USERPROFILE: 'C:\\u', https_proxy: 'p' });
  });

  it('--inherit-env passes the whole environment, the configured env over it', () => {
    const env = spawnEnv({ TMUX: 'mine' }, { base: BASE, platform: 'linux', inheritEnv: true });
    expect(env.AWS_SECRET_ACCESS_KEY).toBe('secret');
    expect(env.TMUX).toBe('mine');
    expect(env.BASH_FUNC_x).toBe('() { :; }');
  });
});
