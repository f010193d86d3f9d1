// `node --import ./test/helpers/import-trace.mjs …`: writes `LOADED <url>` on stderr for every
// module the program resolves, so a test can check what a command loads (e.g. that --version
// loads neither the client nor Ink).
import { register } from 'node:module';

const hooks = `export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  process.stderr.write('LOADED ' + r.url + '\\n');
  return r;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, import.meta.url);
