#!/usr/bin/env node
// Fails when src/ has an import cycle among value imports. The graph is esbuild's, from the
// metafile every build writes (dist/meta.json): TypeScript's type-only imports are erased
// before esbuild records an import, so its graph is exactly the value-import graph, static
// and dynamic (`await import()`) alike: a dynamic import still makes the two modules depend
// on each other's evaluation order once both are loaded.
//
// Usage: node scripts/check-cycles.mjs [dist/meta.json]   (after node scripts/build.mjs)
// Exit: 0 without a cycle, 1 with one (each printed as a → b → … → a), 2 without a metafile.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const file = process.argv[2] ?? join(root, 'dist', 'meta.json');
let meta;
try {
  meta = JSON.parse(readFileSync(file, 'utf8'));
} catch (e) {
  console.error(`check-cycles: cannot read ${file} (run node scripts/build.mjs first): ${e.message}`);
  process.exit(2);
}

/** src/ module → the src/ modules it imports (values only: types are gone by now). */
const graph = new Map();
for (const [path, input] of Object.entries(meta.inputs)) {
  if (!path.startsWith('src/')) continue;
  graph.set(
    path,
    input.imports.filter((i) => !i.external && i.path.startsWith('src/')).map((i) => i.path),
  );
}

// Tarjan's strongly connected components: every component of more than one module (or a
// module importing itself) is a cycle.
let index = 0;
const stack = [];
const on = new Set();
const idx = new Map();
const low = new Map();
const components = [];
function connect(v) {
  idx.set(v, index);
  low.set(v, index++);
  stack.push(v);
  on.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!idx.has(w)) {
      connect(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const c = [];
    let w;
    do {
      w = stack.pop();
      on.delete(w);
      c.push(w);
    } while (w !== v);
    if (c.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(c);
  }
}
for (const v of graph.keys()) if (!idx.has(v)) connect(v);

/** One cycle through `start` inside `members` (breadth-first: the shortest). */
function cycleThrough(start, members) {
  const prev = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        for (let p = prev.get(v); p !== undefined; p = prev.get(p)) path.unshift(p);
        return [...path, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

if (!components.length) {
  console.log(`check-cycles: no import cycle among the value imports of ${graph.size} modules of src/`);
  process.exit(0);
}
for (const c of components) {
  const members = new Set(c);
  const start = [...c].sort()[0];
  console.error(`check-cycles: import cycle (${c.length} module${c.length === 1 ? '' : 's'}): ${cycleThrough(start, members).join(' → ')}`);
}
process.exit(1);
