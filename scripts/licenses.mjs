// Builds THIRD_PARTY_LICENSES from an esbuild metafile: every package that contributes code
// to the bundle, with its version, its licence identifier and the full text of its licence
// file (the notices MIT, ISC, BSD and Apache-2.0 ask to keep with every copy).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Licence identifiers we accept in the bundle; anything else fails the build. */
const PERMISSIVE = new Set(['MIT', 'ISC', 'BSD-2-Clause', 'BSD-3-Clause', 'Apache-2.0', '0BSD', 'BlueOak-1.0.0', 'Unlicense', 'CC0-1.0']);

const MIT = `Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.`;

/**
 * Notices for packages published without a licence file, taken from their repository's
 * LICENSE (the copyright line is also in every source file's header). A new package without
 * one fails the build until it is added here.
 */
const MISSING_FILE = {
  'yoga-layout': `MIT License\n\nCopyright (c) Meta Platforms, Inc. and affiliates.\n\n${MIT}\n\n(from https://github.com/facebook/yoga/blob/main/LICENSE; the npm package ships no LICENSE file)`,
};

/**
 * The packages bundled according to `metafile` (inputs that put at least one byte into an
 * output), sorted by name. Each: { name, version, license, dir, text } where text is the
 * licence file's content (or the MISSING_FILE notice; undefined when there is neither).
 */
export function bundledPackages(root, metafile) {
  const dirs = new Set();
  for (const out of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(out.inputs)) {
      if (!bytesInOutput) continue;
      // The innermost node_modules/<name> or node_modules/@scope/<name> owns the file.
      const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (m) dirs.add(m[1]);
    }
  }
  const pkgs = [...dirs].map((dir) => {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const file = readdirSync(join(root, dir)).find((f) => /^(licen[cs]e|copying)(\.|-|$)/i.test(f));
    const license = typeof pkg.license === 'string' ? pkg.license : (pkg.license?.type ?? 'UNKNOWN');
    const text = file ? readFileSync(join(root, dir, file), 'utf8').trim() : MISSING_FILE[pkg.name];
    return { name: pkg.name, version: pkg.version, license, dir, text };
  });
  return pkgs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The THIRD_PARTY_LICENSES text. Throws when a package's licence is not permissive. */
export function licensesText(root, metafile) {
  const pkgs = bundledPackages(root, metafile);
  const bad = pkgs.filter(
    (p) =>
      !p.license
        .replace(/[()]/g, '')
        .split(/\s+OR\s+/)
        .some((l) => PERMISSIVE.has(l)),
  );
  const noText = pkgs.filter((p) => !p.text);
  if (noText.length) throw new Error(`build: no licence text for ${noText.map((p) => p.name).join(', ')} (add it to MISSING_FILE in scripts/licenses.mjs)`);
  if (bad.length) throw new Error(`build: licence not in the allowed list: ${bad.map((p) => `${p.name} (${p.license})`).join(', ')}`);
  const rule = '-'.repeat(78);
  const parts = [
    `mcp-inspect's files in dist/ include code from the ${pkgs.length} packages below, bundled`,
    'by esbuild. Their licence notices follow, one per package.',
    '',
    ...pkgs.map((p) => `  ${p.name}@${p.version}  ${p.license}`),
  ];
  for (const p of pkgs) {
    parts.push('', rule, `${p.name}@${p.version}  (${p.license})`, rule, '');
    parts.push(p.text);
  }
  return parts.join('\n') + '\n';
}
