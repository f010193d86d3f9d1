/**
 * The URLs of OAuth discovery and the comparisons the spec asks for. Pure: strings in,
 * strings out; nothing is fetched here.
 * spec: basic/authorization/authorization-server-discovery (2026-07-28)
 */

/** True for `localhost`, `*.localhost`, 127.0.0.0/8 and `::1` (RFC 8252 §8.3 loopback). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::1';
}

/** Path of a URL without its trailing slash ('' for the root). */
function trimmedPath(u: URL): string {
  return u.pathname === '/' ? '' : u.pathname.replace(/\/$/, '');
}

/**
 * The key tokens are stored under for an MCP server: origin (lower-case scheme and host,
 * default port dropped) + path without a trailing slash; query and fragment dropped (a
 * query may hold a key). Throws TypeError on a URL that does not parse.
 */
export function serverKey(serverUrl: string): string {
  const u = new URL(serverUrl);
  return `${u.origin}${trimmedPath(u)}`;
}

/**
 * Where to look for Protected Resource Metadata when the challenge named none, in the
 * spec's order: path-based (`/.well-known/oauth-protected-resource/<path>`, skipped for a
 * server at the root), then the root. spec: RFC 9728 §3.1
 */
export function protectedResourceMetadataUrls(serverUrl: string): string[] {
  const u = new URL(serverUrl);
  const path = trimmedPath(u);
  const root = `${u.origin}/.well-known/oauth-protected-resource`;
  return path ? [`${root}${path}`, root] : [root];
}

/** One place to look for authorization server metadata. */
export interface MetadataLocation {
  url: string;
  /** RFC 8414 (`oauth-authorization-server`) or OpenID Connect Discovery (`openid-configuration`). */
  kind: 'oauth' | 'oidc';
}

/**
 * Authorization server metadata URLs for an issuer, in the spec's priority order. With a
 * path (`https://as/tenant1`): RFC 8414 path-inserted, OIDC path-inserted, OIDC appended.
 * Without: RFC 8414, then OIDC. Throws TypeError on an issuer that does not parse.
 * spec: basic/authorization/authorization-server-discovery#authorization-server-metadata-discovery
 */
export function authorizationServerMetadataUrls(issuer: string): MetadataLocation[] {
  const u = new URL(issuer);
  const path = trimmedPath(u);
  if (!path) {
    return [
      { url: `${u.origin}/.well-known/oauth-authorization-server`, kind: 'oauth' },
      { url: `${u.origin}/.well-known/openid-configuration`, kind: 'oidc' },
    ];
  }
  return [
    { url: `${u.origin}/.well-known/oauth-authorization-server${path}`, kind: 'oauth' },
    { url: `${u.origin}/.well-known/openid-configuration${path}`, kind: 'oidc' },
    { url: `${u.origin}${path}/.well-known/openid-configuration`, kind: 'oidc' },
  ];
}

/**
 * True when a PRM `resource` identifies the server at `serverUrl`: same origin (scheme and
 * host compared case-insensitively, as URL parsing does) and the resource's path is the
 * server's path or a parent of it at a segment boundary (a root PRM names the origin).
 * A resource with a fragment, or that does not parse, never matches. spec: RFC 9728 §3.3,
 * basic/authorization#canonical-server-uri
 */
export function resourceMatches(resource: string, serverUrl: string): boolean {
  let r: URL;
  let s: URL;
  try {
    r = new URL(resource);
    s = new URL(serverUrl);
  } catch {
    return false;
  }
  if (r.hash || r.origin !== s.origin) return false;
  const rp = trimmedPath(r);
  const sp = trimmedPath(s);
  return rp === '' || rp === sp || sp.startsWith(`${rp}/`);
}

/**
 * Transport policy for authorization traffic: https everywhere, plain http only to a
 * loopback host (tests, local servers) unless `allowInsecure`. Returns the reason a URL is
 * refused, or undefined when it is allowed. spec: basic/authorization/security-considerations#communication-security
 */
export function insecureReason(url: string, allowInsecure = false): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'it is not a URL';
  }
  if (u.protocol === 'https:') return undefined;
  if (u.protocol !== 'http:') return `its scheme ${u.protocol} is neither https nor http`;
  if (allowInsecure || isLoopbackHost(u.hostname)) return undefined;
  return 'it is plain http to a host that is not loopback';
}
