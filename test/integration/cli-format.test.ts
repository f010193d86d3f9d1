// Issue 24.10: `call --format raw` (text blocks exactly as received), `--format markdown`, and
// `--save-media DIR` (files named from the tool and the block index), against the SDK v2
// fixture (over stdio) and the demo server (over stdio: every content kind). Drives the built binary.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BIN, describeResult, killAllClis, leftoverPids, runCli, stackLines, type CliResult } from '../helpers/cli.js';
import { fixturePath, stopAllFixtures } from '../helpers/servers.js';
import { mediaFileName, safeNamePart } from '../../src/cli/content-format.js';
import { removeTree } from '../helpers/files.js';

const MODERN = fixturePath('modern-server');
vi.setConfig({ testTimeout: 120_000 });

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'mcpi-cli-format-'));
});
afterAll(async () => {
  await killAllClis();
  await stopAllFixtures();
  removeTree(tmp);
  expect(leftoverPids()).toEqual([]);
});

const demo = (args: string[]) => runCli(['call', ...args, '--quiet', '--', process.execPath, BIN, 'demo-server'], { timeoutMs: 90_000 });
const modern = (args: string[]) => runCli(['call', ...args, '--quiet', '--', process.execPath, MODERN, '--stdio'], { timeoutMs: 90_000 });

function ok(r: CliResult, code = 0): void {
  expect(r.code, describeResult(r)).toBe(code);
  expect(r.timedOut).toBe(false);
  expect(stackLines(r.stderr), 'no stack trace on stderr').toEqual([]);
}

describe('call --format', () => {
  it('raw prints the text exactly as received (JSON text not re-indented); text re-indents it', async () => {
    const sent = '{"b": 1,   "a":[2,3]}\ttail';
    const jsonText = '{"b": 1,   "a":[2,3]}';
    const raw = await modern(['echo', `text=${jsonText}`, '--format', 'raw']);
    ok(raw);
    expect(raw.stdout).toBe(`${jsonText}\n`);
    const text = await modern(['echo', `text=${jsonText}`]);
    ok(text);
    expect(text.stdout).toContain('"a": [\n');
    // Whitespace and tabs are kept byte for byte.
    const tab = await modern(['echo', `text=${sent}`, '--format', 'raw']);
    ok(tab);
    expect(tab.stdout).toBe(`${sent}\n`);
  });

  it('raw keeps stdout for text only and names the other blocks on stderr; markdown shows every kind; --save-media writes named files', async () => {
    const raw = await demo(['mixed_content', '--format', 'raw']);
    ok(raw);
    expect(raw.stdout).toBe('One result, four kinds of content:\n');
    expect(raw.stderr).toContain('content[1]: image block (not text; --format text or --json shows it)');

    const dir = join(tmp, 'media');
    const md = await demo(['mixed_content', '--format', 'markdown', '--save-media', dir]);
    ok(md);
    expect(md.stdout).toContain('### `mixed_content`');
    expect(md.stdout).toContain(`![image image/png](${join(dir, 'mixed_content-1.png')})`);
    expect(md.stdout).toContain(`*[audio audio/wav, saved to ${join(dir, 'mixed\\_content-2.wav')}]*`);
    expect(md.stdout).toMatch(/\*\*resource\*\* `demo:\/\/stats.json` \(application\/json\)\n\n```\n\{"kinds":4,"ok":true\}\n```/);
    expect(readdirSync(dir).sort()).toEqual(['mixed_content-1.png', 'mixed_content-2.wav']);
    expect(readFileSync(join(dir, 'mixed_content-1.png')).subarray(1, 4).toString()).toBe('PNG');
    expect(readFileSync(join(dir, 'mixed_content-2.wav')).subarray(0, 4).toString()).toBe('RIFF');
    expect(md.stderr).toContain(`saved content[1] (image/png, `);

    const j = await demo(['picture', '--json', '--save-media', dir]);
    ok(j);
    const doc = JSON.parse(j.stdout);
    expect(doc.savedMedia).toEqual([{ index: 0, path: join(dir, 'picture-0.png'), mimeType: 'image/png', bytes: expect.any(Number) }]);
    expect(existsSync(join(dir, 'picture-0.png'))).toBe(true);

    const bad = await demo(['picture', '--format', 'html']);
    ok(bad, 64);
  });
});

describe('media file names', () => {
  it('come from the tool and the block index, never from the server’s strings unfiltered', () => {
    expect(mediaFileName('picture', 0, 'image/png')).toBe('picture-0.png');
    expect(mediaFileName('../../etc/passwd', 3, 'image/jpeg; q=1')).toBe('__.._etc_passwd-3.jpg');
    expect(mediaFileName('x', 1, '../../evil')).toBe('x-1.bin');
    expect(safeNamePart('')).toBe('tool');
    expect(safeNamePart('a/b\u202e c')).toBe('a_b__c');
  });
});
