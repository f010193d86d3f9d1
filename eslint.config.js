// ESLint (flat config). TypeScript files get typescript-eslint's type-aware rules: in an async
// CLI the bugs that matter are promises nobody awaits or that are passed where a callback's
// result is ignored (no-floating-promises, no-misused-promises). React files also get the
// rules of hooks. Formatting is Prettier's job (`npm run format`), so no stylistic rules here.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// The layers of src/ (DESIGN.md: data flows down; the wire layer knows nothing of the terminal;
// the terminal knows the wire only through the client), as lint rules: each folder may import
// only the folders listed for it (its own files aside), types included. Derived from the
// imports as they are; a new arrow that keeps the direction is one entry here. The README's
// Development section draws the same map.
const LAYERS = {
  util: { may: [], why: 'the shared helpers sit below everything' },
  protocol: { may: ['util'], why: 'the protocol is pure data and knows nothing above it' },
  schema: { may: ['protocol', 'util'], why: 'JSON Schema handling is pure and knows nothing of the client or the faces' },
  diff: { may: ['protocol', 'util'], why: 'the diff is pure and knows nothing of the client or the faces' },
  check: { may: ['schema', 'protocol', 'util'], why: 'findings and their rules are pure: they judge what the client saw' },
  config: { may: ['protocol', 'util'], why: 'reading MCP config files knows nothing of the client or the faces' },
  auth: { may: ['check', 'protocol', 'util'], why: 'the OAuth client sits below the transports, which call it' },
  transport: { may: ['auth', 'check', 'schema', 'protocol', 'util'], why: 'the wire layer knows nothing of the client or the terminal' },
  client: { may: ['transport', 'auth', 'check', 'diff', 'schema', 'protocol', 'util'], why: 'the client knows nothing of the faces' },
  state: {
    may: ['protocol', 'util'],
    why: "what is remembered between runs (the state folder, the call history) is files in the user's folders: it knows nothing of the client or the faces",
  },
  record: {
    may: ['state', 'transport', 'auth', 'check', 'diff', 'schema', 'protocol', 'util'],
    why: 'the proxy, recordings, replay and mock sit on the wire layer and know nothing of the client or the faces',
  },
  collection: {
    may: ['config', 'diff', 'schema', 'protocol', 'util'],
    why: 'saved calls (format, expectations, the file) are data: they know nothing of the client or the faces, which run and save them',
  },
  load: {
    may: ['collection', 'protocol', 'util'],
    why: 'the load engine schedules and measures the calls it is handed: it knows nothing of the client (the CLI hands it the call) or the faces',
  },
  contract: { may: ['client', 'check', 'diff', 'schema', 'protocol', 'util'], why: 'snapshots and checks work through the client, not the faces' },
  demo: { may: ['check', 'diff', 'schema', 'protocol', 'util'], why: 'the demo server is a server: it knows nothing of the client or the faces' },
  tui: {
    may: ['client', 'contract', 'collection', 'state', 'config', 'auth', 'check', 'diff', 'schema', 'protocol', 'util'],
    why: 'the terminal knows the wire only through the client, and the CLI loads the TUI (never the reverse)',
  },
  cli: {
    may: [
      'tui',
      'client',
      'contract',
      'collection',
      'load',
      'state',
      'config',
      'demo',
      'record',
      'auth',
      'transport',
      'check',
      'diff',
      'schema',
      'protocol',
      'util',
    ],
    why: '',
  },
};
// Every folder of src/ has a layer: a new folder without one would be imported from anywhere
// and import anything, unseen (src/state/ and src/load/ were, until this check).
const unlayered = readdirSync(new URL('./src/', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory() && !(d.name in LAYERS))
  .map((d) => `src/${d.name}/`);
if (unlayered.length) throw new Error(`eslint.config.js: ${unlayered.join(', ')} has no entry in LAYERS: say what it may import, and why`);

// Pure folders take values and return values: no I/O (files, processes, the network, the
// terminal) and no clock, so they are tested with plain inputs.
const PURE = ['util', 'protocol', 'schema', 'diff', 'check'];
const IO_MODULES =
  /^(node:)?(fs|child_process|net|http|https|http2|dgram|dns|tls|worker_threads|cluster|readline|os|process|perf_hooks|timers|inspector)(\/.*)?$/;
const IO_PACKAGES = ['undici', 'eventsource-parser', 'oauth4webapi', 'open', 'ink', 'react'];
const TIMERS = ['setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'clearImmediate'];

/** A relative import that reaches the top-level folder `name` of src/ (from any depth). */
const reaching = (names) => `^(\\.\\./)+(${names.join('|')})(/|$)`;

/** The lint rules of one layer: forbidden folders (static and dynamic imports), and for pure folders I/O and the clock. */
function layerRules(name) {
  const { may, why } = LAYERS[name];
  const banned = Object.keys(LAYERS).filter((l) => l !== name && !may.includes(l));
  const rule = `layer rule (eslint.config.js LAYERS): src/${name}/ may import only ${may.length ? may.map((l) => `src/${l}/`).join(', ') : 'itself'}: ${why}`;
  const pureRule = `layer rule (eslint.config.js PURE): src/${name}/ is a pure folder: no I/O (files, processes, the network, the terminal) and no clock`;
  const patterns = [];
  const syntax = [];
  if (banned.length) {
    patterns.push({ regex: reaching(banned), message: rule });
    syntax.push({ selector: `ImportExpression[source.value=/${reaching(banned).replace(/\//g, '\\/')}/]`, message: rule });
  }
  const paths = [];
  if (PURE.includes(name)) {
    patterns.push({ regex: IO_MODULES.source, message: pureRule });
    for (const p of IO_PACKAGES) paths.push({ name: p, message: pureRule });
    syntax.push({
      selector: "NewExpression[callee.name='Date'][arguments.length=0]",
      message: `${pureRule} (new Date() reads the clock: take the time as an argument)`,
    });
  }
  if (name === 'tui') patterns.push({ group: ['undici', 'eventsource-parser'], message: rule });
  const rules = {};
  if (patterns.length || paths.length) rules['no-restricted-imports'] = ['error', { patterns, paths }];
  if (syntax.length) rules['no-restricted-syntax'] = ['error', ...syntax];
  if (PURE.includes(name)) {
    rules['no-restricted-globals'] = ['error', ...[...TIMERS, 'performance', 'fetch', 'process'].map((g) => ({ name: g, message: pureRule }))];
    rules['no-restricted-properties'] = ['error', { object: 'Date', property: 'now', message: pureRule }];
  }
  return { files: [`src/${name}/**/*.{ts,tsx}`], rules };
}

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      // tsconfig.test.json covers src/ and test/ (tsconfig.json, for the build, only src/).
      parserOptions: { project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // An `async` function that awaits nothing is how a function honours a Promise-returning
      // interface (fake clients, transports' no-op close); the rule only adds noise there.
      '@typescript-eslint/require-await': 'off',
      // Services and hooks hand out plain objects of arrow functions (no `this`); the rule
      // cannot tell them from class methods.
      '@typescript-eslint/unbound-method': 'off',
      // Values from a server are `unknown`: String(v) of them is deliberate, and what it gives
      // is sanitized before display.
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  ...Object.keys(LAYERS).map(layerRules),
  {
    // Rooms, not halls (issue 18): a file of src/ that grows past its size is a sign that it
    // took on a second job; split it around that job instead of raising the number.
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'max-lines': ['error', { max: 700 }] },
  },
  { files: ['src/client/client.ts'], rules: { 'max-lines': ['error', { max: 550 }] } },
  { files: ['src/tui/App.tsx'], rules: { 'max-lines': ['error', { max: 220 }] } },
  // The key table is data: one row per key.
  { files: ['src/tui/keys.ts'], rules: { 'max-lines': 'off' } },
  {
    // The sanitizer's own patterns match control characters: that is its job.
    files: ['src/util/sanitize.ts'],
    rules: { 'no-control-regex': 'off' },
  },
  {
    // Tests assert on the JSON the wire carried (JSON.parse, jsonLines): it is `any` by nature,
    // and typing each parsed document would only add casts. They also match control
    // characters on purpose (escape-sequence sanitizing).
    files: ['test/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      'no-control-regex': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-redundant-type-constituents': 'off',
    },
  },
);
