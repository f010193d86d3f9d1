import { describe, expect, it } from 'vitest';
import { ResponseCache, credentialIdentity } from '../../src/client/cache.js';

describe('ResponseCache: ttlMs / cacheScope', () => {
  it('keeps a result while fresh, shows its age, never stores ttlMs 0 or a retry', () => {
    let now = 1_000;
    const c = new ResponseCache('id-a', () => now);
    expect(c.set('resources/read', { uri: 'x://a' }, { n: 1 }, { ttlMs: 100, cacheScope: 'public' })).toBe(true);
    now += 40;
    expect(c.get('resources/read', { uri: 'x://a' })).toEqual({ value: { n: 1 }, ageMs: 40, ttlMs: 100, scope: 'public', fresh: true });
    now += 60;
    expect(c.get('resources/read', { uri: 'x://a' })?.fresh).toBe(false);
    expect(c.set('resources/read', { uri: 'x://b' }, {}, { ttlMs: 0 })).toBe(false);
    expect(c.set('resources/read', { uri: 'x://b' }, {}, {})).toBe(false);
    expect(c.set('tools/call', { name: 't', requestState: 's' }, {}, { ttlMs: 100 })).toBe(false);
    expect(c.set('tools/call', { name: 't', inputResponses: {} }, {}, { ttlMs: 100 })).toBe(false);
  });

  it('private entries belong to the credentials that fetched them; key order and _meta do not matter', () => {
    const a = new ResponseCache(credentialIdentity({ Authorization: 'Bearer one' }));
    a.set('prompts/list', { b: 1, a: 2, _meta: { x: 1 } }, 'mine', { ttlMs: 1000, cacheScope: 'private' });
    expect(a.get('prompts/list', { a: 2, b: 1 })?.value).toBe('mine');
    expect(credentialIdentity({ authorization: 'Bearer one' })).toBe(credentialIdentity({ Authorization: 'Bearer one' }));
    expect(credentialIdentity({ Authorization: 'Bearer two' })).not.toBe(credentialIdentity({ Authorization: 'Bearer one' }));
    expect(credentialIdentity({})).toBe('anonymous');
    expect(credentialIdentity({ Authorization: 'Bearer one' })).not.toContain('one');
  });

  it('a list_changed drops the matching lists at once', () => {
    const c = new ResponseCache();
    for (const m of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) c.set(m, {}, m, { ttlMs: 1000, cacheScope: 'public' });
    c.invalidate('notifications/resources/list_changed');
    expect(c.get('resources/list')).toBeUndefined();
    expect(c.get('resources/templates/list')).toBeUndefined();
    expect(c.get('prompts/list')?.value).toBe('prompts/list');
    c.invalidate('notifications/prompts/list_changed');
    expect(c.get('prompts/list')).toBeUndefined();
    expect(c.get('tools/list')?.value).toBe('tools/list');
    expect(ResponseCache.invalidates('notifications/tools/list_changed')).toBe(true);
  });
});
