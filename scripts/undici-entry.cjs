'use strict';
// What the bundle gets for `import … from 'undici'` (scripts/build.mjs points src/'s imports of
// 'undici' here): the four things src/ uses, Agent, EnvHttpProxyAgent, request and fetch, with the
// same behaviour as undici's own index.js. That index loads the whole library when it loads
// (fetch, WebSocket, EventSource, caches, cookies, mocks, every interceptor, node:zlib…): ~40 ms of
// CPU at the start of every HTTP command, which uses an Agent and request() only. fetch (the
// OAuth requests) is loaded on its first use. Tests run src/ with undici's own index, so both
// entries are exercised: a difference would show as a failing CLI test (they run the bundle).
const Dispatcher = require('../node_modules/undici/lib/dispatcher/dispatcher');
const api = require('../node_modules/undici/lib/api');
const util = require('../node_modules/undici/lib/core/util');
const { InvalidArgumentError } = require('../node_modules/undici/lib/core/errors');

// As index.js: the request/stream/pipeline/upgrade/connect methods of every dispatcher.
Object.assign(Dispatcher.prototype, api);

module.exports.Agent = require('../node_modules/undici/lib/dispatcher/agent');
module.exports.EnvHttpProxyAgent = require('../node_modules/undici/lib/dispatcher/env-http-proxy-agent');

/**
 * undici's `request(url, opts)`: as index.js's makeDispatcher(api.request) for the way src/
 * calls it (a URL or string, options with a `dispatcher`, no `path` option, no callback).
 */
module.exports.request = function request(url, opts) {
  if (!url || (typeof url !== 'string' && typeof url !== 'object')) throw new InvalidArgumentError('invalid url');
  if (opts == null || typeof opts !== 'object' || !opts.dispatcher) throw new InvalidArgumentError('mcp-inspect: request() needs a dispatcher');
  if (opts.path != null) throw new InvalidArgumentError('mcp-inspect: request() takes the path in the URL');
  const u = util.parseURL(url);
  const { dispatcher, ...rest } = opts;
  return api.request.call(dispatcher, {
    ...rest,
    origin: u.origin,
    path: u.search ? `${u.pathname}${u.search}` : u.pathname,
    method: rest.method || (rest.body ? 'PUT' : 'GET'),
  });
};

let fetchImpl;
/** undici's fetch, loaded on the first call (index.js's wrapper only adds the caller's stack to errors). */
module.exports.fetch = function fetch(input, init) {
  fetchImpl ??= require('../node_modules/undici/lib/web/fetch').fetch;
  return fetchImpl(input, init);
};
