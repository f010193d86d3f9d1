#!/usr/bin/env node
// Bundles the CLI, the TUI and every runtime dependency into dist/ with esbuild, so the
// published package has no dependencies to resolve at install time, and writes
// THIRD_PARTY_LICENSES for the bundled packages. Type checking is `npm run typecheck`.
//
// Layout: dist/cli/main.js (the CLI, imported by bin/mcp-inspect.js), dist/tui/run.js (the
// TUI's entry), and dist/chunks/: one file per module that src/ imports dynamically (each
// command, the TUI body with Ink and React, undici, the demo server) plus the code they share.
// So the lazy loading of src/cli/main.ts stays as it is: `--version` and the scripted commands
// never load Ink or React. scripts/rechunk.mjs then merges the chunks of the start-up path
// (main and what a command loads before its server starts, the stdio transport, the client)
// into three files, with Rollup: esbuild cannot be told how to chunk. Every file sits two levels below the package root, as the tsc
// output did, so `new URL('../../package.json', import.meta.url)` in src/ still finds it.
//
// Whitespace and syntax are minified, identifiers are not: stack traces keep their function
// names, and the source maps (no sources inlined) point them at src/.
//
// Usage: node scripts/build.mjs   (also writes dist/meta.json, which is not shipped)
import * as esbuild from 'esbuild';
import { readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { licensesText } from './licenses.mjs';
import { metaValidators } from './meta-validators.mjs';
import { rechunk } from './rechunk.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Source edits applied to dependencies while bundling. Each must match (the build fails
 * otherwise, so an upgrade that moves the code is noticed rather than silently shipped).
 */
const PATCHES = [
  {
    // Ink connects to React DevTools when DEV=true, through react-devtools-core (not a
    // dependency) and ws. Bundled, DEV=true would end in a crash (Ink then reads its own
    // package.json, which is not shipped), and DEV is a common variable name: the bundle
    // ignores it.
    file: 'node_modules/ink/build/utils.js',
    from: "process.env['DEV'] === 'true'",
    to: 'false',
  },
  {
    // … which makes this import dead; dropping it keeps ws and react-devtools-core out.
    file: 'node_modules/ink/build/reconciler.js',
    from: "await import('./devtools.js');",
    to: '/* devtools: not bundled */',
  },
  {
    // Yoga's wasm is inlined as a base64 data: URL, which its loader reads with fetch() when
    // fetch exists: that loads Node's own undici (~20–40 ms at every TUI start-up) to decode
    // a data: URL. Its fallback decodes the same base64 directly.
    file: 'node_modules/yoga-layout/dist/binaries/yoga-wasm-base64-esm.js',
    from: 'return w||"function"!=typeof fetch?',
    to: 'return true?',
  },
  {
    // Ink builds every frame's text row by row, diffing the styles of each cell against the
    // previous one (three Sets and four arrays per cell: ~15 ms per 100×30 frame). Cells
    // with the same styles as the one before need no escape codes: skip the diff for them.
    file: 'node_modules/@alcalzone/ansi-tokenize/build/styledChars.js',
    from: 'ret += ansiCodesToString(diffAnsiCodes(chars[i - 1].styles, char.styles));',
    to: 'const a = chars[i - 1].styles, b = char.styles; if (a.length !== b.length || a.some((c, k) => c.code !== b[k].code || c.endCode !== b[k].endCode)) ret += ansiCodesToString(diffAnsiCodes(a, b));',
  },
  {
    // Ink slices every line written inside a horizontal clip (overflow hidden) to the clip,
    // re-tokenizing it grapheme by grapheme, even when the whole line fits: keep such a line as it is.
    file: 'node_modules/ink/build/output.js',
    from: 'return sliceAnsi(line, from, to);',
    to: 'return from === 0 && to >= width ? line : sliceAnsi(line, from, to);',
  },
  {
    // Ink's caches of line widths and styled characters belong to one frame (a new Output per
    // render), so every frame tokenizes and measures every line and character again, though a
    // frame mostly repeats the last one (a clock ticks, a row changes): ~60% of a frame's time.
    // They are kept across frames (Ink never changes a cached character), emptied past 8,192 entries.
    file: 'node_modules/ink/build/output.js',
    from: '    caches = new OutputCaches();',
    to: '    caches = OutputCaches.shared();',
  },
  {
    file: 'node_modules/ink/build/output.js',
    from: 'class OutputCaches {',
    to: 'class OutputCaches {\n    static #shared;\n    static shared() {\n        const c = OutputCaches.#shared;\n        if (c && c.widths.size + c.blockWidths.size + c.styledChars.size <= 8192) return c;\n        return (OutputCaches.#shared = new OutputCaches());\n    }',
  },
  {
    // … and every frame measured each text node's widest line again with widest-line (a
    // segmenter pass over each line that is not plain ASCII: ›, ·, …, ✓ are on most rows):
    // measured through the same caches instead (string-width's time in a TUI start-up on the
    // demo, to its full list and a quit: 83 → 66 ms).
    file: 'node_modules/ink/build/render-node-to-output.js',
    from: 'const currentWidth = widestLine(text);',
    to: 'const currentWidth = output.caches.getWidestLine(text);',
  },
];

/**
 * Dependencies are built for production (React's production build: half the render time):
 * `process.env.NODE_ENV` is replaced by "production" in node_modules only. A global `define`
 * would also rewrite src/tui/run.tsx's `process.env.NODE_ENV = 'production'`, whose effect on
 * the environment of the servers the TUI spawns is kept as it is.
 */
const NODE_ENV = /\bprocess\.env\.NODE_ENV\b|\bprocess\.env\[["']NODE_ENV["']\]/g;

const dependencySource = {
  name: 'dependency-source',
  setup(build) {
    const applied = new Set();
    const loaded = new Set(); // paths of the files esbuild loaded from node_modules
    build.onStart(() => {
      applied.clear();
      loaded.clear();
    });
    build.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, async (args) => {
      let text = await readFile(args.path, 'utf8');
      const path = args.path.split(sep).join('/');
      loaded.add(path);
      let changed = false;
      for (const p of PATCHES) {
        if (!path.endsWith(`/${p.file}`)) continue;
        if (!text.includes(p.from)) throw new Error(`patch for ${p.file} no longer matches: ${p.from}`);
        text = text.split(p.from).join(p.to);
        applied.add(p);
        changed = true;
      }
      const replaced = text.replace(NODE_ENV, '"production"');
      if (replaced !== text) {
        text = replaced;
        changed = true;
      }
      return changed ? { contents: text, loader: 'js' } : undefined;
    });
    // Errors returned from here fail the build.
    build.onEnd((result) => {
      if (result.errors.length) return undefined;
      const errors = [];
      // A patch whose package is bundled must have been applied (Ink may have moved the code).
      for (const p of PATCHES) {
        const pkg = `/${p.file.split('/').slice(0, 2).join('/')}/`;
        if (!applied.has(p) && [...loaded].some((f) => f.includes(pkg)))
          errors.push({ text: `patch for ${p.file} was not applied (the package is bundled, the file is not)` });
      }
      // Everything but Node's built-ins is inlined: the package has no dependencies to load.
      const builtin = new Set(builtinModules);
      for (const [file, out] of Object.entries(result.metafile?.outputs ?? {})) {
        for (const imp of out.imports) {
          if (imp.external && !imp.path.startsWith('node:') && !builtin.has(imp.path)) {
            errors.push({ text: `${file} loads ${imp.path} at run time: every dependency must be bundled` });
          }
        }
      }
      return { errors };
    });
  },
};

/**
 * Ink and the two packages it measures text with (widest-line, cli-truncate) get their
 * string-width from src/tui/lines/stringWidth.ts: the same widths, counted from a table for the
 * strings the TUI draws (see there). The build fails when those packages would resolve another
 * copy of string-width (or string-width another strip-ansi) than the one that module uses (an
 * upgrade of Ink to another major of it, say).
 */
const STRING_WIDTH_USERS = /[\\/]node_modules[\\/](ink|widest-line|cli-truncate)[\\/]/;
const STRING_WIDTH_TABLE = join(root, 'src', 'tui', 'lines', 'stringWidth.ts');
const stringWidthTable = {
  name: 'string-width-table',
  setup(build) {
    build.onResolve({ filter: /^string-width$/ }, async (args) => {
      if (args.pluginData === 'string-width-table' || !STRING_WIDTH_USERS.test(args.importer)) return undefined;
      const resolve = (name, resolveDir) => build.resolve(name, { kind: args.kind, resolveDir, pluginData: 'string-width-table' });
      const [theirs, ours] = await Promise.all([resolve('string-width', args.resolveDir), resolve('string-width', dirname(STRING_WIDTH_TABLE))]);
      if (theirs.path !== ours.path)
        return { errors: [{ text: `${args.importer} imports ${theirs.path}, not the string-width that ${STRING_WIDTH_TABLE} wraps (${ours.path})` }] };
      // The module strips ANSI codes first with strip-ansi, as string-width does: the same copy.
      const [strip, ourStrip] = await Promise.all([resolve('strip-ansi', dirname(theirs.path)), resolve('strip-ansi', dirname(STRING_WIDTH_TABLE))]);
      if (strip.path !== ourStrip.path)
        return { errors: [{ text: `string-width uses ${strip.path}, ${STRING_WIDTH_TABLE} ${ourStrip.path}: not the same strip-ansi` }] };
      return { path: STRING_WIDTH_TABLE };
    });
  },
};

/** The esbuild options of the shipped bundle (also used by bench/tui-bench.mjs). */
export const bundleOptions = {
  absWorkingDir: root,
  bundle: true,
  splitting: true,
  format: 'esm',
  jsx: 'automatic',
  platform: 'node',
  target: 'node20.18',
  // jsonc-parser's `main` is a UMD build whose require() of its own modules esbuild cannot
  // follow (the bundle then fails at run time); its ESM build bundles cleanly.
  // undici's index loads its whole library (fetch, WebSocket, caches, mocks…) when it loads:
  // scripts/undici-entry.cjs gives src/ the four things it imports, the rest on first use.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js', undici: './scripts/undici-entry.cjs' },
  // Bundled CommonJS (commander, ajv, react …) require()s Node's built-ins (through esbuild's
  // __require, which calls `require.apply`). Every file gets this banner, so its require is made
  // on the first call: createRequire costs ~50 µs a file, and most files never call it.
  banner: {
    js: "import { createRequire as __mcpiCreateRequire } from 'node:module';\nlet __mcpiRequire;\nconst require = function (id) { return (__mcpiRequire ??= __mcpiCreateRequire(import.meta.url))(id); };",
  },
  minifyWhitespace: true,
  minifySyntax: true,
  // Short local names (the source maps map them back; keepNames keeps functions' and classes'
  // .name): the package grew past its 5 MB installed budget with this round's features.
  minifyIdentifiers: true,
  keepNames: true,
  sourcemap: true,
  sourcesContent: false,
  legalComments: 'none', // the notices are in THIRD_PARTY_LICENSES
  metafile: true,
  // src/util/version.ts: the version is a constant of the build, not a file read at run time.
  define: { __MCPI_VERSION__: JSON.stringify(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version) },
  logLevel: 'warning',
  plugins: [dependencySource, metaValidators, stringWidthTable],
};

/**
 * Builds dist/ (emptied first) and THIRD_PARTY_LICENSES. Resolves to esbuild's result
 * (with its metafile); rejects on a build error, an unapplied patch, or a bundled package
 * without a permissive licence.
 */
export async function build({ metafile = false } = {}) {
  const outdir = join(root, 'dist');
  await rm(outdir, { recursive: true, force: true });
  const result = await esbuild.build({
    ...bundleOptions,
    entryPoints: { 'cli/main': 'src/cli/main.ts', 'tui/run': 'src/tui/run.tsx' },
    outdir,
    outbase: 'src',
    entryNames: '[dir]/[name]',
    chunkNames: 'chunks/[name]-[hash]',
  });
  await writeFile(join(root, 'THIRD_PARTY_LICENSES'), licensesText(root, result.metafile));
  result.metafile = await rechunk(root, result.metafile, { banner: bundleOptions.banner.js });
  // dist/cli/early.cjs: the early spawn of a stdio target (src/cli/early.ts), on its own and as
  // CommonJS: bin/mcp-inspect.js require()s it before the first ES module loads (Node's ES
  // module loader costs ~10 ms to start, which the server's start would wait for). Node's
  // built-ins only; its copy of src/transport/held-child.ts hands the server over through a
  // slot of the process.
  const early = await esbuild.build({
    ...bundleOptions,
    splitting: false,
    format: 'cjs',
    banner: {},
    entryPoints: { 'cli/early': 'src/cli/early.ts' },
    outdir,
    outbase: 'src',
    entryNames: '[dir]/[name]',
    outExtension: { '.js': '.cjs' },
  });
  for (const [f, o] of Object.entries(early.metafile.outputs)) result.metafile.outputs[f] = o;
  if (metafile) await writeFile(join(outdir, 'meta.json'), JSON.stringify(result.metafile));
  return result;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const t0 = performance.now();
  // dist/meta.json is always written (never shipped: see `files`): the lazy-loading test maps
  // the chunks a command loads back to their sources with it.
  const { metafile } = await build({ metafile: true });
  const js = Object.entries(metafile.outputs).filter(([f]) => f.endsWith('.js'));
  const kb = js.reduce((n, [, o]) => n + o.bytes, 0) / 1024;
  console.log(`build: dist/ ${js.length} files, ${kb.toFixed(0)} KB of JS (+ source maps), ${(performance.now() - t0).toFixed(0)} ms`);
}
