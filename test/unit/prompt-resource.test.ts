import { describe, expect, it } from 'vitest';
import { promptArgumentsSchema, promptDisplayName } from '../../src/protocol/prompt.js';
import { decodeBlob, isBase64, isResourceNotFound } from '../../src/protocol/resource.js';
import { coerceArgs } from '../../src/schema/coerce.js';
import { validateValue } from '../../src/schema/validate.js';

describe('promptArgumentsSchema', () => {
  const prompt = {
    name: 'greeting',
    title: 'Greeting\u001b[31m',
    arguments: [{ name: 'name', description: 'Who', required: true }, { name: 'style' }, { name: 'name' }, { nope: 1 } as never],
  };
  it('one string property per argument, required carried over, duplicates and nameless skipped', () => {
    expect(promptArgumentsSchema(prompt)).toEqual({
      type: 'object',
      properties: { name: { type: 'string', description: 'Who' }, style: { type: 'string' } },
      additionalProperties: false,
      required: ['name'],
    });
  });
  it('types key=value the way the CLI will and validates like tool arguments', () => {
    const schema = promptArgumentsSchema(prompt);
    expect(coerceArgs(schema, ['name=42'], () => '')).toEqual({ name: '42' });
    expect(validateValue(schema, {}).errors.map((e) => e.message)).toEqual(["missing required argument 'name'"]);
  });
  it('display name is the title (sanitized) or the name', () => {
    expect(promptDisplayName(prompt)).toBe('Greeting');
    expect(promptDisplayName({ name: 'p', title: '  ' })).toBe('p');
  });
});

describe('resource helpers', () => {
  it('-32602 (modern) and -32002 (legacy) read as not found', () => {
    expect(isResourceNotFound(-32602)).toBe(true);
    expect(isResourceNotFound(-32002)).toBe(true);
    expect(isResourceNotFound(-32603)).toBe(false);
  });
  it('decodes blobs and checks canonical base64', () => {
    expect([...decodeBlob('AAEC/w==')]).toEqual([0, 1, 2, 255]);
    expect(isBase64('AAEC/w==')).toBe(true);
    expect(isBase64('AAEC/w')).toBe(false);
    expect(isBase64('AA EC')).toBe(false);
    expect(isBase64('')).toBe(true);
  });
});
