import { describe, expect, it } from 'vitest';
import {
  coerceElicitationField,
  elicitationContent,
  elicitationForm,
  elicitationSchemaProblems,
  exampleElicitationContent,
  formSchemaOf,
  initialElicitationValue,
  validateElicitationContent,
} from '../../src/schema/elicitation.js';
import { updateAt, type ObjectNode } from '../../src/schema/form.js';

// The form server-everything's trigger-elicitation-request sends (one property of each kind).
const EVERYTHING = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'String', description: 'Your full, legal name' },
    check: { type: 'boolean', title: 'Boolean' },
    firstLine: { type: 'string', title: 'String with default', default: 'It was a dark and stormy night.' },
    email: { type: 'string', format: 'email' },
    birthdate: { type: 'string', format: 'date' },
    integer: { type: 'integer', minimum: 1, maximum: 100, default: 42 },
    number: { type: 'number', minimum: 0, maximum: 1000, default: 3.14 },
    untitledSingleSelectEnum: { type: 'string', enum: ['Monica', 'Rachel'], default: 'Monica' },
    untitledMultipleSelectEnum: { type: 'array', minItems: 1, maxItems: 3, items: { type: 'string', enum: ['Guitar', 'Piano'] }, default: ['Guitar'] },
    titledSingleSelectEnum: {
      type: 'string',
      oneOf: [
        { const: 'hero-1', title: 'Superman' },
        { const: 'hero-2', title: 'Green Lantern' },
      ],
      default: 'hero-1',
    },
    titledMultipleSelectEnum: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'fish-1', title: 'Tuna' },
          { const: 'fish-2', title: 'Salmon' },
        ],
      },
      default: ['fish-1'],
    },
    legacyTitledEnum: { type: 'string', enum: ['pet-1', 'pet-2'], enumNames: ['Cats', 'Dogs'], default: 'pet-1' },
  },
  required: ['name'],
};

describe('elicitationSchemaProblems', () => {
  it('accepts every kind the spec allows', () => {
    expect(elicitationSchemaProblems(EVERYTHING)).toEqual([]);
  });
  it('names what leaves the restricted subset', () => {
    expect(
      elicitationSchemaProblems({
        type: 'object',
        properties: {
          nested: { type: 'object', properties: {} },
          s: { type: 'string', pattern: 'x' },
          f: { type: 'string', format: 'ipv4' },
          list: { type: 'array', items: { type: 'integer' } },
        },
        additionalProperties: false,
      }),
    ).toEqual([
      expect.stringMatching(/"nested" has type "object"/),
      expect.stringMatching(/"s" uses "pattern"/),
      expect.stringMatching(/format "ipv4"/),
      expect.stringMatching(/"list": an array must be a multi-select/),
      expect.stringMatching(/"additionalProperties", outside/),
    ]);
    expect(elicitationSchemaProblems('x')).toEqual(['requestedSchema is not an object']);
  });
});

describe('elicitationForm', () => {
  it('builds one form field per property, with labels from titles, enumNames as option labels', () => {
    const form = elicitationForm(EVERYTHING);
    expect(form.problems).toEqual([]);
    const fields = (form.model.root as ObjectNode).fields;
    expect(fields.map((f) => f.kind)).toEqual([
      'string',
      'boolean',
      'string',
      'string',
      'string',
      'number',
      'number',
      'enum',
      'multi',
      'enum',
      'multi',
      'enum',
    ]);
    // Multi-selects are checkboxes (issue 19.12): the titled shape shows its titles.
    const titled = fields[10];
    expect(titled.kind === 'multi' && titled.options.map((o) => o.label)).toEqual(['Tuna', 'Salmon']);
    const legacy = fields.at(-1)!;
    expect(legacy.kind === 'enum' && legacy.options.map((o) => [o.value, o.label])).toEqual([
      ['pet-1', 'Cats'],
      ['pet-2', 'Dogs'],
    ]);
    expect(formSchemaOf(EVERYTHING).properties).not.toBe(EVERYTHING.properties);
  });
  it('prefills defaults and turns the form into validated content', () => {
    const form = elicitationForm(EVERYTHING);
    let value = initialElicitationValue(form);
    let r = elicitationContent(form, value);
    expect(r.content).toMatchObject({
      firstLine: 'It was a dark and stormy night.',
      integer: 42,
      untitledMultipleSelectEnum: ['Guitar'],
      legacyTitledEnum: 'pet-1',
    });
    expect(r.validation.errors.map((e) => e.message)).toEqual(["missing required field 'name'"]);
    value = updateAt(value, ['name'], () => ({ kind: 'text', text: 'Ada' }));
    r = elicitationContent(form, value);
    expect(r.errors).toEqual([]);
    expect(r.validation.valid).toBe(true);
  });
});

describe('validateElicitationContent', () => {
  it('words messages for fields', () => {
    const v = validateElicitationContent(EVERYTHING, { name: 'x', integer: 500, email: 'nope' });
    expect(v.errors.map((e) => e.message).sort()).toEqual(['email must match format "email"', 'integer must be <= 100']);
  });
});

describe('coerceElicitationField', () => {
  it('types what the user typed by the field schema', () => {
    expect(coerceElicitationField(EVERYTHING, 'integer', '7')).toBe(7);
    expect(coerceElicitationField(EVERYTHING, 'check', 'true')).toBe(true);
    expect(coerceElicitationField(EVERYTHING, 'untitledMultipleSelectEnum', '["Piano"]')).toEqual(['Piano']);
    expect(coerceElicitationField(EVERYTHING, 'name', '@home')).toBe('@home');
    expect(() => coerceElicitationField(EVERYTHING, 'integer', 'many')).toThrow();
  });
});

describe('exampleElicitationContent', () => {
  it('fills required fields (defaults first, then placeholders)', () => {
    expect(exampleElicitationContent(EVERYTHING)).toEqual({ name: '…' });
    expect(exampleElicitationContent({ type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] })).toEqual({ confirm: true });
    expect(
      exampleElicitationContent({
        type: 'object',
        properties: { n: { type: 'integer', minimum: 3 }, c: { type: 'string', enum: ['r', 'g'] }, t: { type: 'array', items: { anyOf: [{ const: 'x' }] } } },
      }),
    ).toEqual({ n: 3, c: 'r', t: ['x'] });
  });
});
