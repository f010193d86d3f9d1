/**
 * End-to-end, issue 17's wire points in the TUI, in a real terminal (tmux) with the built
 * binary, against the raw fault peer test/fixtures/faults/http-wire.mjs (the CLI face is
 * test/integration/cli-wire-hardening.test.ts): a legacy server whose GET stream answers 404
 * keeps its session and the header says it can only poll (1); a 401 with nothing to log in to
 * names the status and the flags to pass (4); the stored OAuth token stays home on a 307 to
 * another origin and the warning reaches the Log pane (6). Skipped when tmux is missing or dist/ is not
 * built (`npm run build`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveAuth } from '../../src/auth/store.js';
import { tempConfigHome } from '../helpers/oauth.js';
import { startHttpFixture, stopAllFixtures, type HttpFixture } from '../helpers/servers.js';
import { HAS_TMUX, TUI_BUILT, TUI_ENV, inspectorCommand, tmuxServer, type TmuxSession } from '../helpers/tmux.js';

const canRun = HAS_TMUX && TUI_BUILT;

const term = tmuxServer('e2e-wire');

/** Starts the inspector with `args` in a new 100×30 tmux session `name`. */
const session = (name: string, args: string[], env: Record<string, string> = {}, cols = 100): TmuxSession =>
  term.start({ session: name, cols, rows: 30, command: inspectorCommand(args, { ...TUI_ENV, ...env }) });

const fixtures: Record<string, HttpFixture> = {};

beforeAll(async () => {
  if (!canRun) return;
  for (const mode of ['legacy-get-404', 'bare-401', 'cross-redirect']) fixtures[mode] = await startHttpFixture('faults/http-wire', ['--mode', mode]);
});

afterAll(async () => {
  term.kill();
  await stopAllFixtures();
});

describe.skipIf(!canRun)('e2e in tmux: issue 17 wire points in the TUI', () => {
  it(
    '1. a legacy server whose GET stream answers 404: connected, its tools, a call keeps the session and headers; listen says it can only poll',
    { timeout: 90_000 },
    async () => {
      const t = session('legacy', [fixtures['legacy-get-404'].url, '--header', 'X-Team: blue', '--bearer', 'tok-123']);
      let s = await t.waitForScreen((x) => x.includes('Tools (1)') && x.startsWith('● connected'), 'the tool list');
      expect(s).toMatch(/^› +whoami +Which session and headers this POST carried/m);
      s = await t.waitForScreen((x) => x.includes('no GET stream'), 'the listen status');
      expect(s.split('\n')[1]).toMatch(/^listen no GET stream: nothing can arrive, it can only poll · polling off \(--poll SECONDS\)/);
      // The Listen pane says the same (Tab: Server, Tab: Listen), then back to the tools.
      t.keys('Tab', 'Tab');
      s = await t.waitForScreen((x) => x.includes('Legacy server '), 'the Listen pane');
      expect(s).toMatch(/^Legacy server no subscriptions\/listen, no GET stream: nothing can arrive, it can only poll/m);
      t.keys('BTab', 'BTab');
      await t.waitForScreen((x) => x.includes('Tools (1)'), 'the tool list again');
      t.keys('Enter');
      await t.waitForScreen((x) => x.includes('This tool takes no arguments'), 'the tool');
      t.keys('Enter');
      s = await t.waitForScreen((x) => x.includes('✓ whoami'), 'the result');
      // The call's POST still carried the session id and both configured headers.
      expect(s).toMatch(/^ +"session": "wire-session-1",$/m);
      expect(s).toMatch(/^ +"authorization": "Bearer tok-123",$/m);
      expect(s).toMatch(/^ +"team": "blue"$/m);
      expect(s.split('\n')[0]).toMatch(/^● connected/);
      expect(s).not.toMatch(/no longer knows session|Session not found/);
      t.keys('q');
    },
  );

  it(
    '4. a 401 with no WWW-Authenticate and no metadata: the failure screen names HTTP 401, says login cannot work, names --bearer/--header',
    { timeout: 60_000 },
    async () => {
      const url = fixtures['bare-401'].url;
      const t = session('bare', [url]);
      const s = await t.waitForScreen((x) => x.includes('Could not connect') && x.includes('r retry · q quit'), 'the failure screen');
      const lines = s.split('\n');
      expect(lines[0]).toBe(`● failed · ${url} · no auth · mcp-inspect`);
      // The error, as wrapped under "Could not connect to URL:", read back as one sentence.
      const at = lines.indexOf(`Could not connect to ${url}:`);
      expect(at).toBeGreaterThan(0);
      const rest = lines.slice(at + 1);
      const end = rest.findIndex((l) => !l.startsWith('  '));
      const error = rest
        .slice(0, end)
        .map((l) => l.trim())
        .join(' ');
      expect(error).toBe(
        "the server answered HTTP 401 with no WWW-Authenticate header and publishes no OAuth protected resource metadata, so logging in cannot work there; pass a token with --bearer TOKEN or --header 'Authorization: …'",
      );
      expect(s).not.toMatch(/log in first with|auth login/);
      t.keys('q');
      expect(await t.exitCode()).not.toBe('0');
    },
  );

  it(
    '6. the stored OAuth token does not follow a 307 to another origin (--follow-redirects any); the warning reaches the Log pane',
    { timeout: 90_000 },
    async () => {
      const f = fixtures['cross-redirect'];
      const seen = async () => (await (await fetch(`${f.origin}/seen`)).json()) as { authorization: string | null }[];
      const home = tempConfigHome();
      try {
        await saveAuth(
          {
            version: 1,
            server: f.url,
            resource: f.url,
            issuer: 'http://127.0.0.1:1',
            tokens: { accessToken: 'stored-oauth-token-xyz', tokenType: 'Bearer' },
            updatedAt: Date.now(),
          },
          { env: home.env },
        );
        const before = (await seen()).length;
        const t = session('cross', [f.url, '--follow-redirects', 'any'], { XDG_CONFIG_HOME: home.dir, HOME: home.dir, BROWSER: '' }, 180);
        await t.waitForScreen((x) => x.includes('Tools (1)') && x.startsWith('● connected'), 'the tool list');
        // Shift-Tab from the first pane wraps to the last one, the Log pane.
        t.keys('BTab');
        let s = '';
        s = await t.waitForScreen((x) => x.includes('Log  stderr') && x.includes('the OAuth token was not sent'), 'the warning in the Log pane');
        expect(s).toMatch(
          /^›?\d\d:\d\d:\d\d warning the OAuth token was not sent to http:\/\/127\.0\.0\.1:\d+\/mcp: it was issued for http:\/\/127\.0\.0\.1:\d+/m,
        );
        expect(s).not.toContain('stored-oauth-token-xyz');
        const after = (await seen()).slice(before);
        expect(after.length).toBeGreaterThan(0);
        expect(after.map((x) => x.authorization)).toEqual(after.map(() => null));
        t.keys('q');
        expect(await t.exitCode()).toBe('0');
      } finally {
        home.cleanup();
      }
    },
  );
});

if (!canRun) {
  describe('e2e wire hardening in tmux', () => {
    it.skip(`skipped: ${!HAS_TMUX ? 'tmux not installed' : 'dist/ not built (npm run build)'}`, () => {});
  });
}
