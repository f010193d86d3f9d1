// ESLint (flat config). TypeScript files get typescript-eslint's type-aware rules: in an async
// CLI the bugs that matter are promises nobody awaits or that are passed where a callback's
// result is ignored (no-floating-promises, no-misused-promises). React files also get the
// rules of hooks. Formatting is Prettier's job (`npm run format`), so no stylistic rules here.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
