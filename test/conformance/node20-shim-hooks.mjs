/** Resolve hook of node20-shim.mjs (runs on the loader thread). */
const FS_WITH_GLOB = new URL('./node20-fs-glob.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL && context.parentURL.includes('/@modelcontextprotocol/conformance/')) {
    return { url: FS_WITH_GLOB, shortCircuit: true };
  }
  return next(specifier, context);
}
