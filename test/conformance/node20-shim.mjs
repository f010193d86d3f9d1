/**
 * Node 20 shim for the conformance suite: it imports `globSync` from `fs` (Node 22+).
 * Loaded with `node --import ./test/conformance/node20-shim.mjs`; registers a resolve hook
 * that points `fs` / `node:fs` imports of the conformance package at a module that re-exports
 * node:fs plus a small globSync. A no-op on Node 22+.
 */
import fs from 'node:fs';
import { register } from 'node:module';

if (typeof fs.globSync !== 'function') {
  register(new URL('./node20-shim-hooks.mjs', import.meta.url), import.meta.url);
}
