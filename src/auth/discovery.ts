/**
 * Discovery: Protected Resource Metadata (RFC 9728) from the MCP server, then the
 * authorization server's metadata (RFC 8414 / OpenID Connect Discovery), each checked
 * before use: the PRM `resource` must name the server, the AS `issuer` must be exactly the
 * issuer its URL was built from.
 * spec: basic/authorization/authorization-server-discovery (2026-07-28)
 */
import type { AuthorizationServer } from 'oauth4webapi';
import { sanitizeLine } from '../util/sanitize.js';
import { AuthError } from './errors.js';
import type { AuthFetch } from './http.js';
import { maskUrl } from './mask.js';
import { authorizationServerMetadataUrls, protectedResourceMetadataUrls, resourceMatches } from './urls.js';
import { parseBounded } from '../util/depth.js';

/** A validated Protected Resource Metadata document. */
export interface ProtectedResource {
  /** Where it was fetched from. */
  metadataUrl: string;
  /** The canonical server URI exactly as published: sent as RFC 8707 `resource`. */
  resource: string;
  /** `authorization_servers`: issuer identifiers, at least one. */
  authorizationServers: string[];
  /** `scopes_supported`, when published. */
  scopesSupported?: string[];
}

/** A validated authorization server metadata document. */
export interface AuthorizationServerInfo {
  issuer: string;
  /** Where it was fetched from, and which discovery kind answered. */
  metadataUrl: string;
  kind: 'oauth' | 'oidc';
  metadata: AuthorizationServer;
}

const MAX_REDIRECTS = 3;
/** Longest metadata document read (bytes); larger ones are refused. */
const MAX_METADATA_BYTES = 256 * 1024;

type Fetched = { status: number; url: string; json?: unknown; error?: string };

/** GETs a JSON document, following up to 3 redirects, each hop through the policy of `fetch`. */
async function getJson(fetch: AuthFetch, url: string): Promise<Fetched> {
  let current = url;
  for (let hop = 0; ; hop++) {
    const res = await fetch(current, { method: 'GET', headers: { accept: 'application/json' }, redirect: 'manual' });
    const loc = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && loc && hop < MAX_REDIRECTS) {
      await res.body?.cancel().catch(() => undefined);
      current = new URL(loc, current).toString();
      continue;
    }
    if (res.status !== 200) {
      await res.body?.cancel().catch(() => undefined);
      return { status: res.status, url: current };
    }
    const text = await res.text();
    if (Buffer.byteLength(text) > MAX_METADATA_BYTES) return { status: res.status, url: current, error: `larger than ${MAX_METADATA_BYTES} bytes` };
    try {
      return { status: 200, url: current, json: parseBounded(text) };
    } catch {
      return { status: 200, url: current, error: 'not JSON' };
    }
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function stringList(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : undefined;
}

function describe(tried: Fetched[]): string {
  return tried.map((t) => `${maskUrl(t.url)} → ${t.error ?? `HTTP ${t.status}`}`).join('; ');
}

/**
 * Fetches and validates the server's Protected Resource Metadata: the challenge's
 * `resource_metadata` URL first when given, then the path-based and root well-known
 * locations. Rejects with AuthError('MCPI_AUTH_RESOURCE_MISMATCH') when the document's
 * `resource` does not name `serverUrl` (never falling back to another document then), and
 * with AuthError('MCPI_AUTH_DISCOVERY') when no location gives a valid document.
 * spec: basic/authorization/authorization-server-discovery#protected-resource-metadata-discovery-requirements
 */
export async function discoverProtectedResource(fetch: AuthFetch, serverUrl: string, resourceMetadataUrl?: string): Promise<ProtectedResource> {
  const candidates = [...(resourceMetadataUrl ? [new URL(resourceMetadataUrl, serverUrl).toString()] : []), ...protectedResourceMetadataUrls(serverUrl)];
  const tried: Fetched[] = [];
  for (const url of [...new Set(candidates)]) {
    const got = await getJson(fetch, url);
    tried.push(got);
    if (got.json === undefined) continue;
    const doc = got.json;
    if (!isObject(doc) || typeof doc.resource !== 'string') {
      got.error = 'no "resource" member';
      continue;
    }
    const servers = stringList(doc.authorization_servers);
    if (!servers || servers.length === 0) {
      got.error = 'no "authorization_servers"';
      continue;
    }
    if (!resourceMatches(doc.resource, serverUrl)) {
      throw new AuthError(
        'MCPI_AUTH_RESOURCE_MISMATCH',
        `the protected resource metadata at ${maskUrl(got.url)} is for ${sanitizeLine(doc.resource).slice(0, 200)}, not for ${maskUrl(serverUrl)}; refusing to authorize`,
      );
    }
    return { metadataUrl: got.url, resource: doc.resource, authorizationServers: servers, scopesSupported: stringList(doc.scopes_supported) };
  }
  throw new AuthError('MCPI_AUTH_DISCOVERY', `the server asks for authorization but publishes no protected resource metadata (${describe(tried)})`);
}

/**
 * Fetches the metadata of the authorization server `issuer`, trying the RFC 8414 and OIDC
 * locations in the spec's order, and validates it: `issuer` must equal `issuer` exactly
 * (simple string comparison), else AuthError('MCPI_AUTH_ISSUER_MISMATCH') and the document
 * is not used; with `requirePkce`, `code_challenge_methods_supported` must list `S256`,
 * else AuthError('MCPI_AUTH_PKCE_UNSUPPORTED'). No valid document anywhere:
 * AuthError('MCPI_AUTH_DISCOVERY').
 * spec: basic/authorization/authorization-server-discovery#authorization-server-metadata-discovery,
 * basic/authorization/security-considerations#authorization-code-protection
 */
export async function discoverAuthorizationServer(fetch: AuthFetch, issuer: string, requirePkce = true): Promise<AuthorizationServerInfo> {
  let locations;
  try {
    locations = authorizationServerMetadataUrls(issuer);
  } catch {
    throw new AuthError('MCPI_AUTH_DISCOVERY', `the authorization server ${sanitizeLine(issuer).slice(0, 200)} named by the server is not a URL`);
  }
  const tried: Fetched[] = [];
  for (const loc of locations) {
    const got = await getJson(fetch, loc.url);
    tried.push(got);
    if (got.json === undefined) continue;
    const doc = got.json;
    if (!isObject(doc) || typeof doc.issuer !== 'string') {
      got.error = 'no "issuer" member';
      continue;
    }
    if (doc.issuer !== issuer) {
      throw new AuthError(
        'MCPI_AUTH_ISSUER_MISMATCH',
        `the authorization server metadata at ${maskUrl(got.url)} names the issuer ${sanitizeLine(doc.issuer).slice(0, 200)}, not ${sanitizeLine(issuer)}; refusing to use it`,
      );
    }
    if (requirePkce) {
      const methods = stringList(doc.code_challenge_methods_supported);
      if (!methods?.includes('S256')) {
        throw new AuthError(
          'MCPI_AUTH_PKCE_UNSUPPORTED',
          `the authorization server ${sanitizeLine(issuer)} does not advertise PKCE with S256 (code_challenge_methods_supported); refusing to authorize without it`,
        );
      }
    }
    return { issuer, metadataUrl: got.url, kind: loc.kind, metadata: doc as unknown as AuthorizationServer };
  }
  throw new AuthError('MCPI_AUTH_DISCOVERY', `no authorization server metadata for ${sanitizeLine(issuer)} (${describe(tried)})`);
}
