/**
 * What mcp-inspect hands to a browser or a shell-template browser command. A URL from a server
 * (URL-mode elicitation) or an authorization server reaches a launcher only when it is
 * `https:`, or `http:` on a loopback host; and a URL substituted into a `--browser`/`$BROWSER`
 * template has every character a shell treats specially percent-encoded. Pure.
 * spec: client/elicitation#url-mode-elicitation-requests (security considerations)
 */

/** Whether `url` may be opened, and if not, why (one line, for the user). */
export type OpenableVerdict = { ok: true } | { ok: false; reason: string };

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Only `https:` URLs, and `http:` ones on a loopback host (`localhost`, `127.x.x.x`, `[::1]`),
 * may be opened: `file:`, `javascript:`, custom schemes and plain `http:` to another host are
 * shown, never opened.
 */
export function openableUrl(url: string): OpenableVerdict {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { ok: false, reason: 'not a valid URL: not opened' };
  }
  if (u.protocol === 'https:') return { ok: true };
  if (u.protocol === 'http:') {
    return LOOPBACK.test(u.hostname) ? { ok: true } : { ok: false, reason: `plain http: to ${u.hostname} (not loopback): only https: URLs are opened` };
  }
  return { ok: false, reason: `scheme ${u.protocol} is never opened: only https: (and http: on loopback) URLs are` };
}

/**
 * `url` with every character a POSIX shell (or cmd.exe) treats specially percent-encoded
 * (`$ \` ( ) ; & | < > ' " \ ! * [ ] { } ~ # ^` space, and controls), for substituting into
 * a browser template that may be a shell script (`sh -c 'firefox %s'`): `$(…)` in an
 * authorization endpoint's path then reaches the shell as `%24%28…%29`, inert. `?` is kept
 * (the query's start; as a glob it can only match existing file names, never run anything);
 * `%XX` escapes already there stay as they are.
 */
export function shellSafeUrl(url: string): string {
  return url.replace(/[^A-Za-z0-9\-._:/?=%+,@]/g, (c) =>
    [...new TextEncoder().encode(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}
