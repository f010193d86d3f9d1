/**
 * The token store: one JSON file per MCP server under
 * `$XDG_CONFIG_HOME/mcp-inspect/oauth/` (default `~/.config/mcp-inspect/oauth/`), the
 * directory mode 0700, each file mode 0600, written atomically (temp file + rename). A file
 * holds the server's resource, the issuer of its authorization server, the client
 * registration obtained there and the tokens. Nothing here ever prints a token; the status
 * functions return scopes and times only.
 * spec: basic/authorization/security-considerations#token-theft,
 * basic/authorization/client-registration#authorization-server-binding
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { StoredDpopKey } from './dpop.js';
import { serverKey } from './urls.js';

/** How the client got its identity at the authorization server. */
export type ClientSource = 'pre-registered' | 'cimd' | 'dcr';

/** Token endpoint client authentication methods mcp-inspect speaks. */
export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

/** A client identity, bound to the authorization server that issued it. */
export interface StoredClient {
  /** Issuer identifier of the authorization server this client is valid at. */
  issuer: string;
  clientId: string;
  clientSecret?: string;
  /** ms since epoch; absent or 0 = does not expire (RFC 7591 `client_secret_expires_at`, converted). */
  clientSecretExpiresAt?: number;
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  source: ClientSource;
  /** The redirect URI registered by DCR (its port is reused on the next login). */
  redirectUri?: string;
  /** private_key_jwt: the PEM file of the client's key (a reference: the key is never copied here). */
  keyFile?: string;
  /** private_key_jwt: the JWS algorithm it signs with. */
  keyAlg?: string;
}

/** Tokens from the token endpoint. */
export interface StoredTokens {
  accessToken: string;
  /** `bearer` or `dpop` (lower-cased by oauth4webapi). */
  tokenType: string;
  refreshToken?: string;
  /** ms since epoch, from `expires_in` at receipt; absent = unknown. */
  expiresAt?: number;
  /** Scopes granted (the response's `scope`, else those requested). */
  scopes?: string[];
}

/** One file of the store. */
export interface StoredAuth {
  version: 1;
  /** {@link serverKey} of the MCP server URL. */
  server: string;
  /** PRM `resource` (the RFC 8707 resource the tokens are for). */
  resource?: string;
  /** The authorization server used last. */
  issuer?: string;
  client?: StoredClient;
  tokens?: StoredTokens;
  /** Scopes asked for last (kept on step-up). */
  requestedScopes?: string[];
  /** The DPoP key the tokens are bound to (RFC 9449): kept with them so a refresh keeps the binding. */
  dpop?: StoredDpopKey;
  /** The grant that obtained the tokens, when not the authorization code grant. */
  grant?: string;
  /** ms since epoch. */
  updatedAt: number;
}

/** What `auth status` shows for one server: no token text. */
export interface TokenStatus {
  server: string;
  resource?: string;
  issuer?: string;
  clientSource?: ClientSource;
  scopes: string[];
  /** ms since epoch, when known. */
  expiresAt?: number;
  /** True when expiresAt has passed. */
  expired: boolean;
  hasAccessToken: boolean;
  hasRefreshToken: boolean;
  /** `bearer` or `dpop`, when a token is held. */
  tokenType?: string;
  /** The DPoP binding: the key's thumbprint (the token's `cnf.jkt`) and algorithm. */
  dpop?: { jkt: string; alg: string };
  /** The grant that obtained the tokens (`authorization_code` when not recorded). */
  grant?: string;
  /** ms since epoch. */
  updatedAt: number;
}

/** Options shared by the store functions. */
export interface StoreOptions {
  /** Environment to read XDG_CONFIG_HOME and HOME from (default process.env). */
  env?: NodeJS.ProcessEnv;
}

/**
 * The store directory: `$XDG_CONFIG_HOME/mcp-inspect/oauth` when XDG_CONFIG_HOME is an
 * absolute path (the XDG spec ignores relative ones), else `~/.config/mcp-inspect/oauth`.
 */
export function authStoreDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.config');
  return join(base, 'mcp-inspect', 'oauth');
}

function fileFor(dir: string, key: string): string {
  return join(dir, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`);
}

function parseEntry(text: string): StoredAuth | undefined {
  try {
    const v = JSON.parse(text) as StoredAuth;
    return v && v.version === 1 && typeof v.server === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The stored entry for a server URL, or undefined (no file, or a file that does not parse). */
export async function loadAuth(serverUrl: string, o: StoreOptions = {}): Promise<StoredAuth | undefined> {
  const key = serverKey(serverUrl);
  try {
    const e = parseEntry(await readFile(fileFor(authStoreDir(o.env), key), 'utf8'));
    return e?.server === key ? e : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes the entry for `entry.server` (mode 0600 in a 0700 directory, atomically).
 * Rejects with the file system's error (EACCES, ENOSPC…).
 */
export async function saveAuth(entry: StoredAuth, o: StoreOptions = {}): Promise<void> {
  const dir = authStoreDir(o.env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const file = fileFor(dir, entry.server);
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, `${JSON.stringify(entry, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await chmod(tmp, 0o600);
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

async function allEntries(o: StoreOptions): Promise<{ file: string; entry: StoredAuth }[]> {
  const dir = authStoreDir(o.env);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const out: { file: string; entry: StoredAuth }[] = [];
  for (const n of names.filter((x) => x.endsWith('.json')).sort()) {
    const file = join(dir, n);
    try {
      const entry = parseEntry(await readFile(file, 'utf8'));
      if (entry) out.push({ file, entry });
    } catch {
      /* unreadable: skipped */
    }
  }
  return out;
}

function statusOf(e: StoredAuth, now: number): TokenStatus {
  const t = e.tokens;
  return {
    server: e.server,
    resource: e.resource,
    issuer: e.issuer,
    clientSource: e.client?.source,
    scopes: t?.scopes ?? [],
    expiresAt: t?.expiresAt,
    expired: t?.expiresAt !== undefined && t.expiresAt <= now,
    hasAccessToken: !!t?.accessToken,
    hasRefreshToken: !!t?.refreshToken,
    tokenType: t?.tokenType,
    dpop: e.dpop ? { jkt: e.dpop.jkt, alg: e.dpop.alg } : undefined,
    grant: e.grant ?? (t ? 'authorization_code' : undefined),
    updatedAt: e.updatedAt,
  };
}

/** Status of every stored server, sorted by server URL. Never includes token text. */
export async function listTokens(o: StoreOptions = {}): Promise<TokenStatus[]> {
  const now = Date.now();
  return (await allEntries(o)).map((x) => statusOf(x.entry, now)).sort((a, b) => a.server.localeCompare(b.server));
}

/** Status of one server, or undefined when nothing is stored for it. Never includes token text. */
export async function tokenStatus(serverUrl: string, o: StoreOptions = {}): Promise<TokenStatus | undefined> {
  const e = await loadAuth(serverUrl, o);
  return e ? statusOf(e, Date.now()) : undefined;
}

/** Every stored entry (tokens included: for revocation at logout, never for display). */
export async function loadAllAuth(o: StoreOptions = {}): Promise<StoredAuth[]> {
  return (await allEntries(o)).map((x) => x.entry);
}

/**
 * Deletes what is stored for one server URL (tokens and client registration), or for every
 * server with 'all'. Resolves with the number of servers forgotten. Revoking the tokens
 * first is the caller's (src/auth/revoke.ts). `target`: a server URL, or the word `all`.
 */
export async function deleteTokens(target: string, o: StoreOptions = {}): Promise<number> {
  if (target === 'all') {
    const entries = await allEntries(o);
    for (const x of entries) await rm(x.file, { force: true });
    return entries.length;
  }
  const key = serverKey(target);
  const file = fileFor(authStoreDir(o.env), key);
  const e = await loadAuth(target, o);
  if (!e) return 0;
  await rm(file, { force: true });
  return 1;
}
