import { describe, expect, test } from 'vitest';
import { scopeSetKey, selectScopes, unionScopes } from '../../src/auth/scopes.js';

describe('selectScopes (spec: scope selection strategy)', () => {
  test('the challenge scope is authoritative', () => {
    expect(selectScopes({ challenged: ['mcp:basic'], configured: ['x'], resourceScopes: ['a', 'b'] })).toEqual(['mcp:basic']);
  });
  test('else configured scopes, else all of PRM scopes_supported', () => {
    expect(selectScopes({ configured: ['x'], resourceScopes: ['a', 'b'] })).toEqual(['x']);
    expect(selectScopes({ resourceScopes: ['a', 'b'] })).toEqual(['a', 'b']);
  });
  test('nothing known: undefined (the parameter is omitted)', () => {
    expect(selectScopes({})).toBeUndefined();
    expect(selectScopes({ authorizationServerScopes: ['offline_access'] })).toBeUndefined();
  });
  test('offline_access only when the AS lists it, and never alone', () => {
    expect(selectScopes({ resourceScopes: ['mcp:basic'], authorizationServerScopes: ['mcp:basic', 'offline_access'] })).toEqual([
      'mcp:basic',
      'offline_access',
    ]);
    expect(selectScopes({ resourceScopes: ['mcp:basic'], authorizationServerScopes: ['mcp:basic', 'mcp:read'] })).toEqual(['mcp:basic']);
    expect(selectScopes({ resourceScopes: ['mcp:basic'], authorizationServerScopes: ['offline_access'], wantRefresh: false })).toEqual(['mcp:basic']);
  });
  test('step-up keeps what was requested before (union, first-seen order)', () => {
    expect(selectScopes({ challenged: ['mcp:write'], prior: ['mcp:basic'] })).toEqual(['mcp:basic', 'mcp:write']);
    expect(unionScopes(['a', 'b'], undefined, ['b', 'c', ''])).toEqual(['a', 'b', 'c']);
  });
  test('scopeSetKey ignores order and duplicates', () => {
    expect(scopeSetKey(['b', 'a', 'b'])).toBe(scopeSetKey(['a', 'b']));
    expect(scopeSetKey(undefined)).toBe('');
  });
});
