import { describe, expect, it } from 'vitest';
import { expandUriTemplate, isUriTemplate, parseUriTemplate, templateArgumentsSchema, templateValuesFromPairs } from '../../src/protocol/uri-template.js';
import { buildForm } from '../../src/schema/form.js';

describe('parseUriTemplate', () => {
  it('lists variables in order, once, with operator and modifiers', () => {
    const t = parseUriTemplate('surface://items/{category}/{id}{?q,limit}{/path*}{+base:3}{category}');
    expect(t.error).toBeUndefined();
    expect(t.variables).toEqual([
      { name: 'category', operator: '', explode: false },
      { name: 'id', operator: '', explode: false },
      { name: 'q', operator: '?', explode: false },
      { name: 'limit', operator: '?', explode: false },
      { name: 'path', operator: '/', explode: true },
      { name: 'base', operator: '+', explode: false, maxLength: 3 },
    ]);
  });
  it('takes the templates server-everything publishes', () => {
    expect(parseUriTemplate('demo://resource/dynamic/text/{resourceId}').variables.map((v) => v.name)).toEqual(['resourceId']);
  });
  it.each([
    ['a{b', /unclosed/],
    ['a}b', /unbalanced/],
    ['{=x}', /reserved operator/],
    ['{}', /empty expression/],
    ['{a b}', /bad variable/],
    ['{a:0}', /prefix length/],
  ])('reports %s as malformed', (tpl, why) => {
    expect(parseUriTemplate(tpl).error).toMatch(why);
  });
  it('tells templates from plain URIs', () => {
    expect(isUriTemplate('file:///{path}')).toBe(true);
    expect(isUriTemplate('file:///etc/hosts')).toBe(false);
  });
});

describe('expandUriTemplate (RFC 6570 via url-template)', () => {
  it('percent-encodes simple values and leaves absent variables out', () => {
    expect(expandUriTemplate('surface://items/{category}/{id}', { category: 'veg', id: 'leek pie' })).toBe('surface://items/veg/leek%20pie');
    expect(expandUriTemplate('surface://search{?q,limit}', { q: 'a b', limit: undefined })).toBe('surface://search?q=a%20b');
    expect(expandUriTemplate('surface://search{?q,limit}', { q: '' })).toBe('surface://search?q=');
  });
  it('explodes lists and keeps reserved characters with +', () => {
    expect(expandUriTemplate('x:{/path*}', { path: ['a', 'b c'] })).toBe('x:/a/b%20c');
    expect(expandUriTemplate('{+base}/x', { base: 'http://h/p?q' })).toBe('http://h/p?q/x');
  });
  it('throws on a malformed template', () => {
    expect(() => expandUriTemplate('{oops', {})).toThrow(/invalid URI template/);
  });
});

describe('templateValuesFromPairs', () => {
  const t = parseUriTemplate('x://{a}{/p*}{?q}');
  it('splits at the first =, repeats become lists, reports unknown, missing and malformed', () => {
    const r = templateValuesFromPairs(t, ['a=1=2', 'p=x', 'p=y', 'zz=3', 'bare']);
    expect(r.values).toEqual({ a: '1=2', p: ['x', 'y'] });
    expect(r.unknown).toEqual(['zz']);
    expect(r.missing).toEqual(['q']);
    expect(r.malformed).toEqual(['bare']);
    expect(expandUriTemplate(t.template, r.values)).toBe('x://1%3D2/x/y');
  });
});

describe('templateArgumentsSchema', () => {
  it('gives the form engine one optional string per variable (an array for exploded ones)', () => {
    const schema = templateArgumentsSchema(parseUriTemplate('x://{a}{/p*}{?q}'));
    const form = buildForm(schema);
    expect(form.root.kind).toBe('object');
    const fields = form.root.kind === 'object' ? form.root.fields : [];
    expect(fields.map((f) => [f.key, f.kind, f.required])).toEqual([
      ['a', 'string', false],
      ['p', 'array', false],
      ['q', 'string', false],
    ]);
  });
});
