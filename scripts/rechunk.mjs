// Merges the small files esbuild splits the start-up path into (run by scripts/build.mjs after
// esbuild). esbuild makes one chunk per set of entry points that reach a module, and every
// `import()` is an entry point, so `mcp-inspect tools` loaded 48 files of ~3 KB before it
// spawned its server: at ~0.8 ms of Node's module loader per file, that was a third of the
// start-up the bundle added to bare node.
//
// GROUPS names the start-up path's entry modules in load order (main, the stdio transport, the
// client); each group becomes one file with what its entries import statically (groupsOf() says
// which chunks stay out). A chunk then loads with its group even in a run that needs only part
// of the group: that is the trade. The commands' specs and bodies stay in their own files, so
// a command still loads only its own, and `--help` loads none of the client.
//
// Rollup re-bundles esbuild's output: every esbuild file is a module and a manual chunk (its
// group's, or its own), so rollup only merges what GROUPS says. It renames what collides, keeps
// each module's order, rewrites the imports (dynamic ones too) and chains the source maps back
// to src/. Tree-shaking is off: esbuild already dropped the dead code.
import { rollup } from 'rollup';
import { readFileSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { basename, join, relative } from 'node:path';

/**
 * The start-up path, in load order: each group's `entries` are src/ modules (the entry point of
 * an esbuild output). The first group is dist/cli/main.js, which every run loads first.
 */
export const GROUPS = [
  // main.ts and what a command loads before it spawns a server: the session and the output.
  { name: 'cli/main', entries: ['src/cli/main.ts', 'src/cli/session.ts', 'src/cli/output.ts'] },
  // The stdio transport, loaded just before the spawn.
  { name: 'stdio', entries: ['src/transport/stdio.ts'] },
  // The client, loaded while the server starts.
  { name: 'client', entries: ['src/client/client.ts'] },
];

/**
 * Sources dist/cli/main.js must not hold, as every run (`--help` too) loads it: the client,
 * the transports, the TUI, Ajv, the demo server, the OAuth client, the commands' own modules,
 * and every package but commander and kleur (the lazy-loading test in
 * test/integration/cli-exit-codes.test.ts checks what `--help` and `tools` load).
 */
export const NOT_IN_MAIN =
  /^src\/(client|transport|tui|schema|demo|auth|record)\/|^src\/cli\/commands\/(?!index\.ts|tui\.ts)|^node_modules\/(?!commander\/|kleur\/)/;

/**
 * Output file (dist/…) → the group it joins, from esbuild's metafile.
 * - dist/cli/main.js takes the static closure of its entries, but the chunks that hold a
 *   source of NOT_IN_MAIN: those stay alone.
 * - A later group takes the static closure of its entries, but what an earlier group decided.
 *   A chunk of it that a file off the start-up path also imports (a command's body, say) would
 *   make that file load the whole group: it moves to dist/cli/main.js when it and what it
 *   imports may be there, and stays alone otherwise.
 * - A chunk a group imports but does not hold is never taken by a later group: that group
 *   would import the earlier one and be imported by it (rollup refuses such a cycle).
 */
export function groupsOf(metafile) {
  const outputs = metafile.outputs;
  const files = Object.keys(outputs).filter((f) => f.endsWith('.js'));
  const byEntry = new Map(files.filter((f) => outputs[f].entryPoint).map((f) => [outputs[f].entryPoint, f]));
  const imports = (f) => outputs[f].imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => i.path);
  const entriesOf = (g) =>
    g.entries.map((e) => {
      if (!byEntry.has(e)) throw new Error(`rechunk: no output has the entry point ${e}`);
      return byEntry.get(e);
    });
  const assigned = new Map();
  const alone = new Set();
  const decided = (f) => assigned.has(f) || alone.has(f);
  /** The static closure of `from`, but the files decided already. */
  const closureOf = (from) => {
    const c = new Set(from.filter((f) => !decided(f)));
    for (const f of c) for (const i of imports(f)) if (!decided(i)) c.add(i);
    return c;
  };
  const mayBeInMain = (f) => !outputs[f].entryPoint && !Object.keys(outputs[f].inputs).some((s) => NOT_IN_MAIN.test(s));
  // What the commands' own modules (specs and bodies) import: a command loads it before its
  // session, so before the later groups.
  const early = closureOf(files.filter((f) => /^src\/cli\/commands\//.test(outputs[f].entryPoint ?? '')));

  const [main, ...later] = GROUPS;
  for (const f of closureOf(entriesOf(main))) {
    if (mayBeInMain(f) || main.entries.includes(outputs[f].entryPoint)) assigned.set(f, main.name);
    else alone.add(f);
  }
  for (const g of later) {
    const entries = entriesOf(g);
    for (const f of entries) if (decided(f)) throw new Error(`rechunk: ${outputs[f].entryPoint} is loaded by an earlier group`);
    const closure = closureOf(entries);
    for (const f of closure) {
      if (decided(f)) continue;
      if (entries.includes(f) || !early.has(f)) continue;
      const hoisted = closureOf([f]);
      if ([...hoisted].every(mayBeInMain)) for (const h of hoisted) assigned.set(h, main.name);
      else alone.add(f);
    }
    for (const f of closure) if (!decided(f)) assigned.set(f, g.name);
  }
  return assigned;
}

/**
 * Re-bundles `dist/` (esbuild's output, with its source maps) in place along GROUPS and returns
 * a metafile of the same shape as esbuild's, whose outputs are the new files (each output's
 * inputs are the src/ and node_modules/ sources of the chunks merged into it; `inputs` is
 * esbuild's, so the import graph checked by scripts/check-cycles.mjs is unchanged).
 * `banner`: the text esbuild put at the top of every file (the lazy `require` of
 * scripts/build.mjs); it is kept only in the files that use `require`, as a merged file would
 * otherwise carry one copy per chunk. Rejects on any rollup warning.
 */
export async function rechunk(root, metafile, { banner = '' } = {}) {
  const dist = join(root, 'dist');
  const groups = groupsOf(metafile);
  const rel = (id) => relative(root, id).split('\\').join('/');
  const bundle = await rollup({
    input: Object.fromEntries(
      Object.entries(metafile.outputs)
        .filter(([f, o]) => o.entryPoint && !f.startsWith('dist/chunks/'))
        .map(([f]) => [f.slice('dist/'.length, -'.js'.length), join(root, f)]),
    ),
    treeshake: false,
    // dist/cli/main.js holds its group itself (no facade re-exporting a chunk).
    preserveEntrySignatures: 'allow-extension',
    external: (id) => id.startsWith('node:') || builtinModules.includes(id),
    // Re-bundling esbuild's clean output warns only when something is wrong (a cycle of chunks
    // would run a module before one it imports; an unresolved import; a broken map): fail.
    onwarn(w) {
      throw new Error(`rechunk: ${w.message}`);
    },
    plugins: [
      {
        name: 'esbuild-output',
        load(id) {
          let code = readFileSync(id, 'utf8');
          // The banner's lines become empty ones, so esbuild's map still fits.
          if (banner && code.startsWith(banner) && !/\brequire\b/.test(code.slice(banner.length))) {
            code = banner.replace(/[^\n]/g, '') + code.slice(banner.length);
          }
          return { code, map: JSON.parse(readFileSync(`${id}.map`, 'utf8')) };
        },
      },
    ],
  });
  const out = `${dist}.rechunk`;
  await rm(out, { recursive: true, force: true });
  const { output } = await bundle.write({
    dir: out,
    format: 'es',
    sourcemap: true,
    sourcemapExcludeSources: true,
    entryFileNames: '[name].js',
    // A chunk esbuild made keeps its name (already hashed); a merged group is named after it.
    chunkFileNames: (c) => (/-[A-Z0-9]{8}$/.test(c.name) ? 'chunks/[name].js' : 'chunks/[name]-[hash].js'),
    // Every file is a manual chunk: its group, or itself (rollup would otherwise pull a lone
    // chunk a group imports into that group).
    manualChunks: (id) => groups.get(rel(id)) ?? basename(id, '.js'),
    minifyInternalExports: true,
    generatedCode: 'es2015',
  });
  await bundle.close();
  await rm(dist, { recursive: true, force: true });
  await rename(out, dist);
  return metafileOf(output, metafile, root);
}

/** esbuild's metafile with `outputs` rebuilt for rollup's `output` (see rechunk()). */
function metafileOf(output, metafile, root) {
  const outputs = {};
  for (const c of output) {
    if (c.type !== 'chunk') continue;
    const inputs = {};
    for (const m of Object.keys(c.modules)) {
      const old =
        metafile.outputs[
          m
            .slice(root.length + 1)
            .split('\\')
            .join('/')
        ];
      if (old) Object.assign(inputs, old.inputs);
    }
    const entry = c.facadeModuleId && metafile.outputs[c.facadeModuleId.slice(root.length + 1)]?.entryPoint;
    outputs[`dist/${c.fileName}`] = {
      imports: [
        ...c.imports.map((p) => ({ path: `dist/${p}`, kind: 'import-statement' })),
        ...c.dynamicImports.map((p) => ({ path: `dist/${p}`, kind: 'dynamic-import' })),
      ],
      exports: c.exports,
      ...(entry ? { entryPoint: entry } : {}),
      inputs,
      bytes: Buffer.byteLength(c.code),
    };
  }
  return { inputs: metafile.inputs, outputs };
}
