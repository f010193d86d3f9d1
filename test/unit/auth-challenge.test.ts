import { describe, expect, test } from 'vitest';
import { bearerChallenge, parseWwwAuthenticate } from '../../src/auth/challenge.js';

describe('parseWwwAuthenticate', () => {
  test('one Bearer challenge with quoted parameters', () => {
    expect(parseWwwAuthenticate('Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read"')).toEqual([
      { scheme: 'Bearer', params: { resource_metadata: 'https://mcp.example.com/.well-known/oauth-protected-resource', scope: 'files:read' } },
    ]);
  });
  test('several challenges, unquoted values, escapes, odd spacing and stray commas', () => {
    const got = parseWwwAuthenticate('Basic realm="a \\"b\\"", , Bearer  error=invalid_token ,scope = "a b",Negotiate abc123==');
    expect(got).toEqual([
      { scheme: 'Basic', params: { realm: 'a "b"' } },
      { scheme: 'Bearer', params: { error: 'invalid_token', scope: 'a b' } },
      { scheme: 'Negotiate', params: {}, token68: 'abc123==' },
    ]);
  });
  test('parameter names are case-insensitive; a bare scheme has no parameters', () => {
    expect(parseWwwAuthenticate('bearer Scope="x"')).toEqual([{ scheme: 'bearer', params: { scope: 'x' } }]);
    expect(parseWwwAuthenticate('Bearer')).toEqual([{ scheme: 'Bearer', params: {} }]);
    expect(parseWwwAuthenticate('')).toEqual([]);
  });
});

describe('bearerChallenge', () => {
  test('reads resource_metadata, scope (split), error and description', () => {
    expect(
      bearerChallenge(
        'Basic realm="x", Bearer error="insufficient_scope", scope="files:write  files:read", resource_metadata="https://m/prm", error_description="need write"',
      ),
    ).toEqual({
      resourceMetadata: 'https://m/prm',
      scope: ['files:write', 'files:read'],
      error: 'insufficient_scope',
      errorDescription: 'need write',
    });
  });
  test('undefined without a Bearer challenge; empty scope is no scope', () => {
    expect(bearerChallenge('Basic realm="x"')).toBeUndefined();
    expect(bearerChallenge(undefined)).toBeUndefined();
    expect(bearerChallenge('Bearer scope=""')).toEqual({ resourceMetadata: undefined, scope: undefined, error: undefined, errorDescription: undefined });
  });
});
