/**
 * The environment a spawned server gets, as MCP hosts (Claude, Cursor, the SDK's
 * StdioClientTransport) give it: the SDK's default set of variables, the proxy variables (so an
 * `npx -y` server still installs behind a proxy), then the configured `env` over them. With
 * `inheritEnv` (`--inherit-env`) the whole environment of mcp-inspect passes, under the
 * configured `env`. So a server that works here works in a host, and one that needs a variable
 * it was not given fails here as it would there.
 */

/** The SDK's `DEFAULT_INHERITED_ENV_VARS` on POSIX (sudo's list). */
export const POSIX_INHERITED_ENV = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'] as const;

/** The SDK's `DEFAULT_INHERITED_ENV_VARS` on Windows. */
export const WINDOWS_INHERITED_ENV = [
  'APPDATA',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATH',
  'PROCESSOR_ARCHITECTURE',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'USERNAME',
  'USERPROFILE',
  'PROGRAMFILES',
] as const;

/** Proxy variables passed as well, in either case (curl and npm read both). */
export const PROXY_ENV = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY'] as const;

export interface SpawnEnvOptions {
  /** Pass the whole `base` environment (`--inherit-env`). */
  inheritEnv?: boolean;
  /** The environment to take from (default `process.env`). */
  base?: NodeJS.ProcessEnv;
  /** Which default set applies (default `process.platform`). */
  platform?: NodeJS.Platform;
}

/**
 * The spawned server's environment: the default set and the proxy variables present in `base`
 * (a value starting with `()`, a shell function, is skipped as the SDK does), or all of `base`
 * with `inheritEnv`, then `configured` over it. Windows names match case-insensitively (its
 * environment does: `Path` is `PATH`).
 */
export function spawnEnv(configured: Record<string, string> = {}, opts: SpawnEnvOptions = {}): Record<string, string> {
  const base = opts.base ?? process.env;
  const out: Record<string, string> = {};
  if (opts.inheritEnv) {
    for (const [k, v] of Object.entries(base)) if (v !== undefined) out[k] = v;
    return { ...out, ...configured };
  }
  const win = (opts.platform ?? process.platform) === 'win32';
  const defaults: readonly string[] = win ? WINDOWS_INHERITED_ENV : POSIX_INHERITED_ENV;
  const proxies = new Set<string>(PROXY_ENV);
  for (const [k, v] of Object.entries(base)) {
    if (v === undefined || v.startsWith('()')) continue;
    const upper = k.toUpperCase();
    const isDefault = win ? defaults.includes(upper) : defaults.includes(k);
    // Proxy variables in either case on every platform (http_proxy is the older, common one).
    const isProxy = proxies.has(upper) && (k === upper || k === k.toLowerCase() || win);
    if (isDefault || isProxy) out[k] = v;
  }
  return { ...out, ...configured };
}
