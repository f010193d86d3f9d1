/**
 * The proxy variables, read as undici's `EnvHttpProxyAgent` reads them (and as curl and most
 * tools do): `http_proxy`/`HTTP_PROXY` for http: URLs, `https_proxy`/`HTTPS_PROXY` for
 * https: URLs (else the http one), `no_proxy`/`NO_PROXY` for the hosts that go direct (the
 * lower-case spelling wins). NO_PROXY is a list split on commas and spaces: `*` (everything
 * direct), `host`, `.host` or `*.host` (that host and its subdomains), each with an optional
 * `:port`. Pure: the environment is an argument; the dispatchers that apply it are
 * src/transport/http-common.ts's and src/auth/http.ts's.
 */

/** The proxy configuration of an environment (each variable as found, lower case first). */
export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy: string;
  /** The variable names the values came from, for messages (`HTTPS_PROXY`, `no_proxy`…). */
  from: { httpProxy?: string; httpsProxy?: string; noProxy?: string };
}

const first = (env: Readonly<Record<string, string | undefined>>, names: string[]): [string, string] | undefined => {
  for (const n of names) if (env[n] !== undefined) return [n, env[n]];
  return undefined;
};

/** The settings of `env`, or undefined when neither an http nor an https proxy is set (everything goes direct). */
export function proxySettingsFromEnv(env: Readonly<Record<string, string | undefined>>): ProxySettings | undefined {
  const http = first(env, ['http_proxy', 'HTTP_PROXY']);
  const https = first(env, ['https_proxy', 'HTTPS_PROXY']);
  const no = first(env, ['no_proxy', 'NO_PROXY']);
  if (!http?.[1] && !https?.[1]) return undefined;
  return {
    ...(http?.[1] ? { httpProxy: http[1] } : {}),
    ...(https?.[1] ? { httpsProxy: https[1] } : {}),
    noProxy: no?.[1] ?? '',
    from: { httpProxy: http?.[1] ? http[0] : undefined, httpsProxy: https?.[1] ? https[0] : undefined, noProxy: no?.[0] },
  };
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** What a request to a URL does under the settings: through which proxy (and which variable named it), or direct and why. */
export type ProxyDecision = { proxy: string; variable: string } | { proxy?: undefined; reason: string };

/**
 * The decision for `url`, exactly as EnvHttpProxyAgent makes it: NO_PROXY first (`*`, or an
 * entry equal to the host or a parent domain of it, with a port that matches when given),
 * then the https or http proxy by the URL's scheme (an https URL without HTTPS_PROXY uses
 * HTTP_PROXY).
 */
export function proxyDecision(url: string, s: ProxySettings): ProxyDecision {
  const u = new URL(url);
  // As undici: brackets of an IPv6 host are kept.
  const host = u.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(u.port, 10) || DEFAULT_PORTS[u.protocol] || 0;
  const entries = s.noProxy
    .split(/[,\s]/)
    .filter(Boolean)
    .map((e) => {
      const m = /^(.+):(\d+)$/.exec(e);
      return { raw: e, host: (m ? m[1] : e).replace(/^\*?\./, '').toLowerCase(), port: m ? Number.parseInt(m[2], 10) : 0 };
    });
  const noProxyName = s.from.noProxy ?? 'NO_PROXY';
  if (entries.length) {
    if (s.noProxy === '*') return { reason: `${noProxyName}=*` };
    for (const e of entries) {
      if (e.port && e.port !== port) continue;
      if (host === e.host || host.endsWith(`.${e.host}`)) return { reason: `${noProxyName} has ${e.raw}` };
    }
  }
  if (u.protocol === 'https:' && s.httpsProxy) return { proxy: s.httpsProxy, variable: s.from.httpsProxy ?? 'HTTPS_PROXY' };
  if (s.httpProxy) return { proxy: s.httpProxy, variable: s.from.httpProxy ?? 'HTTP_PROXY' };
  return { reason: `no ${u.protocol === 'https:' ? 'HTTPS_PROXY or HTTP_PROXY' : 'HTTP_PROXY'}` };
}

/** The proxy URL without its credentials (`http://user:pass@p:8080` → `http://p:8080`), for messages. */
export function proxyLabel(proxy: string): string {
  try {
    const u = new URL(proxy);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return '(an unparsable proxy URL)';
  }
}

/** The `--trace` note of the decision for `url` (origin only): `proxy for http://h:1: http://p:8080 (HTTP_PROXY)` or `… direct (NO_PROXY has h)`. */
export function proxyNote(url: string, s: ProxySettings): string {
  const d = proxyDecision(url, s);
  const origin = new URL(url).origin;
  return d.proxy !== undefined ? `(proxy for ${origin}: ${proxyLabel(d.proxy)}, from ${d.variable})` : `(proxy for ${origin}: none, direct: ${d.reason})`;
}
