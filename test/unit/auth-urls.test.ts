import { describe, expect, test } from 'vitest';
import {
  authorizationServerMetadataUrls,
  insecureReason,
  isLoopbackHost,
  protectedResourceMetadataUrls,
  resourceMatches,
  serverKey,
} from '../../src/auth/urls.js';

describe('discovery URLs (spec order)', () => {
  test('PRM: path-based first, then the root; only the root for a server at the root', () => {
    expect(protectedResourceMetadataUrls('https://example.com/public/mcp')).toEqual([
      'https://example.com/.well-known/oauth-protected-resource/public/mcp',
      'https://example.com/.well-known/oauth-protected-resource',
    ]);
    expect(protectedResourceMetadataUrls('https://example.com/mcp/?x=1')).toEqual([
      'https://example.com/.well-known/oauth-protected-resource/mcp',
      'https://example.com/.well-known/oauth-protected-resource',
    ]);
    expect(protectedResourceMetadataUrls('https://example.com')).toEqual(['https://example.com/.well-known/oauth-protected-resource']);
  });
  test('AS metadata for an issuer with a path: RFC 8414 inserted, OIDC inserted, OIDC appended', () => {
    expect(authorizationServerMetadataUrls('https://auth.example.com/tenant1')).toEqual([
      { url: 'https://auth.example.com/.well-known/oauth-authorization-server/tenant1', kind: 'oauth' },
      { url: 'https://auth.example.com/.well-known/openid-configuration/tenant1', kind: 'oidc' },
      { url: 'https://auth.example.com/tenant1/.well-known/openid-configuration', kind: 'oidc' },
    ]);
  });
  test('AS metadata for an issuer without a path: RFC 8414, then OIDC', () => {
    expect(authorizationServerMetadataUrls('https://auth.example.com')).toEqual([
      { url: 'https://auth.example.com/.well-known/oauth-authorization-server', kind: 'oauth' },
      { url: 'https://auth.example.com/.well-known/openid-configuration', kind: 'oidc' },
    ]);
    expect(authorizationServerMetadataUrls('https://auth.example.com/').map((l) => l.url)[0]).toBe(
      'https://auth.example.com/.well-known/oauth-authorization-server',
    );
  });
});

describe('resourceMatches', () => {
  test('the server itself, or a parent path at a segment boundary (a root PRM names the origin)', () => {
    expect(resourceMatches('https://m.example.com/mcp', 'https://m.example.com/mcp')).toBe(true);
    expect(resourceMatches('https://m.example.com/mcp/', 'https://m.example.com/mcp')).toBe(true);
    expect(resourceMatches('https://m.example.com', 'https://m.example.com/mcp')).toBe(true);
    expect(resourceMatches('https://m.example.com/a', 'https://m.example.com/a/mcp')).toBe(true);
    expect(resourceMatches('HTTPS://M.EXAMPLE.COM/mcp', 'https://m.example.com/mcp')).toBe(true);
  });
  test('another origin, a sibling path, a longer path, a fragment or garbage: no match', () => {
    expect(resourceMatches('https://evil.example.com/mcp', 'https://m.example.com/mcp')).toBe(false);
    expect(resourceMatches('http://m.example.com/mcp', 'https://m.example.com/mcp')).toBe(false);
    expect(resourceMatches('https://m.example.com:8443/mcp', 'https://m.example.com/mcp')).toBe(false);
    expect(resourceMatches('https://m.example.com/mc', 'https://m.example.com/mcp')).toBe(false);
    expect(resourceMatches('https://m.example.com/mcp/extra', 'https://m.example.com/mcp')).toBe(false);
    expect(resourceMatches('https://m.example.com/mcp#f', 'https://m.example.com/mcp')).toBe(false);
    expect(resourceMatches('not a url', 'https://m.example.com/mcp')).toBe(false);
  });
});

describe('serverKey and the transport policy', () => {
  test('serverKey: lower-case origin, no default port, no trailing slash, no query or fragment', () => {
    expect(serverKey('HTTPS://Example.COM:443/mcp/?api_key=secret#x')).toBe('https://example.com/mcp');
    expect(serverKey('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
  });
  test('loopback hosts', () => {
    for (const h of ['localhost', 'app.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['example.com', '10.0.0.1', '128.0.0.1', 'localhost.example.com']) expect(isLoopbackHost(h), h).toBe(false);
  });
  test('https always; http only to loopback unless allowed; other schemes never', () => {
    expect(insecureReason('https://as.example.com/token')).toBeUndefined();
    expect(insecureReason('http://127.0.0.1:9/token')).toBeUndefined();
    expect(insecureReason('http://localhost/token')).toBeUndefined();
    expect(insecureReason('http://as.example.com/token')).toMatch(/not loopback/);
    expect(insecureReason('http://as.example.com/token', true)).toBeUndefined();
    expect(insecureReason('file:///etc/passwd', true)).toMatch(/scheme file:/);
  });
});
