import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it, vi } from 'vitest';
import { removeTree } from '../helpers/files.js';

// The build's generator (scripts/meta-validators.mjs, plain JavaScript): the sources it puts in
// place of src/schema/meta.ts, evaluated here as the bundle's CommonJS wrapper would.
const { metaValidatorSources, ENGINE_OPTIONS } = (await import(new URL('../../scripts/meta-validators.mjs', import.meta.url).href)) as {
  metaValidatorSources: () => Record<string, string>;
  ENGINE_OPTIONS: Record<string, unknown>;
};
const require = createRequire(import.meta.url);
const precompiled = Object.fromEntries(
  Object.entries(metaValidatorSources()).map(([dialect, source]) => {
    const m = { exports: {} as unknown };
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the generated code is the build's, evaluated as its CommonJS wrapper would
    new Function('module', 'exports', 'require', source)(m, m.exports, require);
    return [dialect, m.exports as ValidateFunction];
  }),
);

vi.mock('../../src/schema/meta.js', () => ({ PRECOMPILED_META: precompiled }));
const { validateValue } = await import('../../src/schema/validate.js');

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: unknown) => unknown;

/** Schemas good and bad for each meta-schema: every kind of keyword, wrong types, wrong shapes. */
const CORPUS: unknown[] = [
  { type: 'object', properties: { a: { type: 'string', minLength: 1, pattern: '^x' }, b: { type: 'integer', minimum: 0 } }, required: ['a'] },
  { type: 'array', items: { enum: ['a', 'b'] }, minItems: 1, maxItems: 3, uniqueItems: true },
  { anyOf: [{ type: 'string' }, { type: 'null' }], $defs: { x: { const: 1 } }, $ref: '#/$defs/x' },
  { oneOf: [{ format: 'email' }, { format: 'uri' }], not: { type: 'number' }, if: { type: 'string' }, then: { maxLength: 3 } },
  { type: 'object', additionalProperties: false, patternProperties: { '^p': true }, dependentRequired: { a: ['b'] } },
  { type: 12 },
  { type: 'strng' },
  { type: ['string', 'string'] },
  { properties: 5 },
  { required: 'a' },
  { minimum: 'x', maximum: {} },
  { items: 3 },
  { items: [{ type: 'string' }] },
  { enum: 'x' },
  { pattern: 5 },
  { $anchor: '1bad' },
  { $defs: { a: 3 }, definitions: { b: 'c' } },
  { anyOf: [] },
  { allOf: [{ type: 'string' }, { minLength: -1 }] },
  { $id: 'x#y', description: 7, examples: 'z' },
  { dependencies: { a: 5 }, additionalItems: 'no' },
];

const ENGINES = { '2020-12': Ajv2020, '2019-09': Ajv2019, 'draft-07': Ajv } as const;
const shape = (errors: ErrorObject[] | null | undefined) => (errors ?? []).map((e) => [e.instancePath, e.schemaPath, e.keyword, e.message]);

describe('the meta-schema validators the build compiles (scripts/meta-validators.mjs)', () => {
  it('give the answers and errors Ajv gives at run time, for every dialect and schema of the corpus', () => {
    expect(Object.keys(precompiled).sort()).toEqual(Object.keys(ENGINES).sort());
    for (const [dialect, AjvClass] of Object.entries(ENGINES)) {
      const ajv = new AjvClass({ ...ENGINE_OPTIONS });
      addFormats(ajv);
      let invalid = 0;
      for (const schema of CORPUS) {
        const expected = ajv.validateSchema(schema as object) as boolean;
        const meta = precompiled[dialect];
        expect(meta(schema), `${dialect} ${JSON.stringify(schema)}`).toBe(expected);
        expect(shape(meta.errors), `${dialect} ${JSON.stringify(schema)}`).toEqual(shape(ajv.errors));
        if (!expected) invalid++;
      }
      expect(invalid, dialect).toBeGreaterThan(10);
    }
  });

  it('validateValue with them: the same schema errors, and values checked by schemas compiled without a meta-schema pass', () => {
    expect(validateValue({ type: 12 }, 1).schemaError).toMatch(/not valid JSON Schema 2020-12: \/type /);
    expect(validateValue({ type: 'array', items: [{ type: 'string' }] }, ['a']).schemaError).toMatch(/not valid JSON Schema 2020-12/);
    expect(validateValue({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'string', minLength: 'x' }, 'a').schemaError).toMatch(
      /not valid JSON Schema draft-04\/06: \/minLength /,
    );
    expect(validateValue({ $schema: 'https://json-schema.org/draft/2019-09/schema', required: 'a' }, {}).schemaError).toMatch(/not valid JSON Schema 2019-09/);
    const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 2 } }, required: ['n'] };
    expect(validateValue(schema, { n: 3 })).toMatchObject({ valid: true, errors: [] });
    expect(validateValue(schema, { n: 1 }).errors.map((e) => e.message)).toEqual(['n must be >= 2']);
    expect(validateValue({ properties: { a: { $ref: '#/$defs/missing' } } }, {}).schemaError).toMatch(/\$ref "#\/\$defs\/missing" does not resolve/);
  });

  it("are what the shipped bundle's src/schema/meta.ts exports (scripts/build.mjs's bundleOptions take the plugin)", { timeout: 60_000 }, async () => {
    // A plugin written but left out of bundleOptions compiles nothing and fails nothing else: this builds meta.ts as dist/ does.
    const { bundleOptions } = (await import(new URL('../../scripts/build.mjs', import.meta.url).href)) as { bundleOptions: Record<string, unknown> };
    const esbuild = await import('esbuild');
    const out = await esbuild.build({
      ...bundleOptions,
      entryPoints: ['src/schema/meta.ts'],
      splitting: false,
      write: false,
      outfile: 'meta.js',
      sourcemap: false,
    });
    const dir = mkdtempSync(join(tmpdir(), 'mcpi-meta-'));
    try {
      const file = join(dir, 'meta.mjs');
      writeFileSync(file, out.outputFiles[0].text);
      const { PRECOMPILED_META } = (await import(pathToFileURL(file).href)) as { PRECOMPILED_META?: Record<string, ValidateFunction> };
      expect(Object.keys(PRECOMPILED_META ?? {}).sort()).toEqual(Object.keys(ENGINES).sort());
      expect(PRECOMPILED_META!['2020-12']({ type: 12 })).toBe(false);
      expect(PRECOMPILED_META!['2020-12']({ type: 'string' })).toBe(true);
    } finally {
      removeTree(dir);
    }
  });
});
