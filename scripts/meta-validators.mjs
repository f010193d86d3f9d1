// The meta-schema validators of src/schema/validate.ts, compiled when the bundle is built
// instead of on every run. Ajv compiles a dialect's meta-schema (with its vocabularies) the
// first time a schema is checked against it: ~90 ms of CPU in every `call`, `run` and `load`,
// for code that is the same every time. Ajv's standalone code (ajv/dist/standalone) writes
// those validators out as JavaScript; the build puts them in place of src/schema/meta.ts
// (esbuild plugin below), so the bundle checks schemas without compiling the meta-schemas.
// Run from source (vitest), meta.ts gives none and validate.ts compiles them as before.
//
// The Ajv that writes them is made with the options validate.ts's engines use, so the code is
// the code Ajv would have compiled at run time (test/unit/meta-validators.test.ts compares
// their answers with ajv.validateSchema's on a corpus).
import { Ajv } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const addFormats = addFormatsModule.default ?? addFormatsModule;
const standaloneCode = standaloneModule.default ?? standaloneModule;

/** The options of validate.ts's `engine()` (its guarded RegExp aside: the meta-schemas' patterns are safe, and it emits `new RegExp` as Ajv's default does). */
export const ENGINE_OPTIONS = { strict: false, allErrors: true, logger: false, addUsedSchema: false };

/** Each dialect of validate.ts that has an engine: its Ajv class and its meta-schema's $id. */
const DIALECTS = {
  '2020-12': [Ajv2020, 'https://json-schema.org/draft/2020-12/schema'],
  '2019-09': [Ajv2019, 'https://json-schema.org/draft/2019-09/schema'],
  'draft-07': [Ajv, 'http://json-schema.org/draft-07/schema'],
};

/**
 * The CommonJS source of each dialect's meta-schema validator (`module.exports` is Ajv's
 * ValidateFunction; it require()s Ajv's small runtime helpers, which the bundle takes in).
 * @returns {Record<'2020-12' | '2019-09' | 'draft-07', string>}
 */
export function metaValidatorSources() {
  return Object.fromEntries(
    Object.entries(DIALECTS).map(([dialect, [AjvClass, id]]) => {
      const ajv = new AjvClass({ ...ENGINE_OPTIONS, code: { source: true } });
      addFormats(ajv);
      return [dialect, standaloneCode(ajv, ajv.getSchema(id))];
    }),
  );
}

const NAMESPACE = 'mcpi-meta';

/** The esbuild plugin: src/schema/meta.ts becomes the precompiled validators. */
export const metaValidators = {
  name: 'meta-validators',
  setup(b) {
    let sources;
    b.onLoad({ filter: /[\\/]src[\\/]schema[\\/]meta\.ts$/ }, () => {
      sources ??= metaValidatorSources();
      const names = Object.keys(sources);
      return {
        loader: 'js',
        resolveDir: root,
        contents:
          names.map((d, i) => `import v${i} from '${NAMESPACE}:${d}';`).join('\n') +
          `\nexport const PRECOMPILED_META = { ${names.map((d, i) => `'${d}': v${i}`).join(', ')} };\n`,
      };
    });
    b.onResolve({ filter: new RegExp(`^${NAMESPACE}:`) }, (args) => ({ path: args.path.slice(NAMESPACE.length + 1), namespace: NAMESPACE }));
    b.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
      sources ??= metaValidatorSources();
      return { loader: 'js', resolveDir: root, contents: sources[args.path] };
    });
  },
};
