#!/usr/bin/env node
// The type check and ESLint in one process over one TypeScript program: what
// `npm run typecheck` (tsc -p tsconfig.test.json) and `eslint .` check, for `npm test`.
// Run apart, each builds the same program of ~1,200 files (parse and bind), and the lint's
// type-aware rules then ask a second checker for types that the type check had already
// worked out; here ESLint is handed the type check's program (typescript-eslint's
// `parserOptions.programs`), so its rules read the types from that checker's caches: ~35%
// less CPU for the pair, beside a test suite that needs the cores. The rules, the files
// and the tsconfig are the same; a file the program does not hold is still an error.
//
// `npm run static` gives V8 a young generation of 64 MB (--max-semi-space-size; 16 by default):
// the type check and the lint build a heap of ~600 MB, and fewer, larger scavenges cost less:
// ~9% less CPU for this script (48 against 53 CPU-s, means of three runs side by side).
//
// Usage: node scripts/check-static.mjs   (exit 1 on a type error or a lint error; output as tsc's and eslint's)
import { ESLint } from 'eslint';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tty = process.stdout.isTTY === true;

// The program of `tsc -p tsconfig.test.json` (the same options, files and diagnostics).
const config = ts.getParsedCommandLineOfConfigFile(
  join(root, 'tsconfig.test.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  },
);
const program = ts.createProgram({
  rootNames: config.fileNames,
  options: config.options,
  projectReferences: config.projectReferences,
  configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config),
});
const diagnostics = ts.sortAndDeduplicateDiagnostics(ts.getPreEmitDiagnostics(program));
if (diagnostics.length) {
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  process.stdout.write(tty ? ts.formatDiagnosticsWithColorAndContext(diagnostics, host) : ts.formatDiagnostics(diagnostics, host));
  process.stdout.write(`\nFound ${diagnostics.length} type error${diagnostics.length === 1 ? '' : 's'}.\n`);
}

// `eslint .` with eslint.config.js, its TypeScript files parsed against the program above.
const eslint = new ESLint({ cwd: root, overrideConfig: [{ files: ['**/*.{ts,tsx}'], languageOptions: { parserOptions: { programs: [program] } } }] });
const results = await eslint.lintFiles(['.']);
const report = await (await eslint.loadFormatter('stylish')).format(results);
if (report) process.stdout.write(report);
const lintErrors = results.reduce((n, r) => n + r.errorCount, 0);

process.exitCode = diagnostics.some((d) => d.category === ts.DiagnosticCategory.Error) || lintErrors > 0 ? 1 : 0;
