/**
 * The reports of `diff` and `check` for people and CI: colored text (the tool diff is the
 * `listen` renderer's), Markdown for a pull-request comment, JUnit XML for CI test views.
 * Pure: values in, strings out. Every server string is sanitized (text, Markdown) or
 * XML-escaped (JUnit) here.
 */
import { diffTools } from '../diff/diff.js';
import { createPalette, renderToolDiff, type Palette } from '../diff/render.js';
import { sanitizeLine } from '../util/sanitize.js';
import { atLeast, type Finding, type Severity } from '../check/types.js';
import { CHANGE_CLASSES, type Change, type ChangeClass, type Classification } from './classify.js';
import type { Snapshot } from './snapshot.js';
import { append } from '../util/array.js';

const CLASS_LABEL: Record<ChangeClass, string> = { breaking: 'breaking', review: 'needs review', compatible: 'compatible', informational: 'informational' };

/** `+ added` / `- removed` lines for one keyed list (prompts, resources, templates). */
function listDiffLines(noun: string, a: string[], b: string[], p: Palette): string[] {
  const sa = new Set(a);
  const sb = new Set(b);
  const out: string[] = [];
  for (const k of b) if (!sa.has(k)) out.push(p.green(`+ ${noun} ${sanitizeLine(k)}`));
  for (const k of a) if (!sb.has(k)) out.push(p.red(`- ${noun} ${sanitizeLine(k)}`));
  return out;
}

function paintClass(c: ChangeClass, p: Palette): (s: string) => string {
  return c === 'breaking' ? p.red : c === 'review' ? p.yellow : c === 'compatible' ? p.green : p.dim;
}

/** One change as a line: `breaking      search.limit: now required`. */
export function changeLine(c: Change, p: Palette): string {
  return `${paintClass(c.class, p)(CLASS_LABEL[c.class].padEnd(13))} ${sanitizeLine(c.path)}: ${sanitizeLine(c.message)}`;
}

/** A one-line count: `2 breaking, 1 compatible` (or `no changes`). */
export function summarizeClassification(c: Classification): string {
  const parts = CHANGE_CLASSES.filter((k) => c.counts[k]).map((k) => `${c.counts[k]} ${CLASS_LABEL[k]}`);
  return parts.length ? parts.join(', ') : 'no changes';
}

/**
 * The text report of a diff: the field-level tool diff (as `listen` prints it), the added /
 * removed prompts, resources and templates, then every classified change, strongest first.
 */
export function renderDiffText(a: Snapshot, b: Snapshot, c: Classification, opts: { color: boolean }): string {
  const p = createPalette(opts.color);
  const out: string[] = [];
  const tools = renderToolDiff(diffTools(a.tools, b.tools), { color: opts.color });
  if (tools) out.push(tools);
  append(out, listDiffLines('prompt', a.order.prompts, b.order.prompts, p));
  append(out, listDiffLines('resource', a.order.resources, b.order.resources, p));
  append(out, listDiffLines('resource template', a.order.resourceTemplates, b.order.resourceTemplates, p));
  if (out.length) out.push('');
  const sorted = [...c.changes].sort((x, y) => CHANGE_CLASSES.indexOf(x.class) - CHANGE_CLASSES.indexOf(y.class));
  for (const ch of sorted) out.push(changeLine(ch, p));
  out.push(p.bold(summarizeClassification(c)));
  return out.join('\n');
}

const mdCell = (s: string) =>
  sanitizeLine(s)
    .replace(/\|/g, '\\|')
    .replace(/[<>]/g, (m) => (m === '<' ? '&lt;' : '&gt;'));

/**
 * The Markdown summary of a diff for a pull-request comment: a verdict line and a table of
 * changes. The mark says what the diff found (❌ a breaking change, ⚠️ a change that needs
 * review, ✅ nothing stronger than compatible), never how `--fail-on` set the exit code.
 */
export function renderDiffMarkdown(c: Classification): string {
  const mark = c.counts.breaking ? '❌' : c.counts.review ? '⚠️' : '✅';
  const head = `### MCP surface diff: ${mark} ${summarizeClassification(c)}`;
  if (!c.changes.length) return `${head}\n`;
  const rows = [...c.changes]
    .sort((x, y) => CHANGE_CLASSES.indexOf(x.class) - CHANGE_CLASSES.indexOf(y.class))
    .map((ch) => `| ${CLASS_LABEL[ch.class]} | \`${mdCell(ch.path)}\` | ${mdCell(ch.message)} |`);
  return `${head}\n\n| class | where | change |\n|---|---|---|\n${rows.join('\n')}\n`;
}

/** Escapes text for XML attribute and element content (and drops characters XML 1.0 forbids). */
export function xmlEscape(s: string): string {
  return (
    s
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

/** One test case of a JUnit report: passed, or failed with a type, a one-line message and a body. */
export interface JunitCase {
  classname: string;
  name: string;
  /** Seconds the case took, when it has a time of its own. */
  time?: number;
  failure?: { type: string; message: string; body?: string };
}

/** A JUnit XML report (one suite named `suite`) of `cases`, escaped; `diff`, `check` and `load --junit` write it. */
export function renderJunit(suite: string, cases: JunitCase[]): string {
  const failures = cases.filter((c) => c.failure).length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlEscape(suite)}" tests="${cases.length}" failures="${failures}">`,
    `  <testsuite name="${xmlEscape(suite)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0">`,
  ];
  for (const c of cases) {
    const open = `    <testcase classname="${xmlEscape(c.classname)}" name="${xmlEscape(c.name)}"${c.time !== undefined ? ` time="${c.time}"` : ''}`;
    if (!c.failure) lines.push(`${open}/>`);
    else {
      lines.push(`${open}>`);
      lines.push(
        `      <failure type="${xmlEscape(c.failure.type)}" message="${xmlEscape(c.failure.message)}">${xmlEscape(c.failure.body ?? c.failure.message)}</failure>`,
      );
      lines.push('    </testcase>');
    }
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}

/**
 * JUnit XML of a diff: one test case per change (a failure when it fails under `fails`), or
 * one passing case when nothing changed.
 */
export function renderDiffJunit(c: Classification, fails: (ch: Change) => boolean): string {
  const cases: JunitCase[] = c.changes.map((ch) => ({
    classname: `mcp-inspect.diff.${ch.entity}`,
    name: `${ch.path}: ${ch.message}`,
    failure: fails(ch)
      ? { type: ch.class, message: `${CLASS_LABEL[ch.class]}: ${ch.path}: ${ch.message}`, body: `${ch.kind}\n${ch.path}: ${ch.message}` }
      : undefined,
  }));
  if (!cases.length) cases.push({ classname: 'mcp-inspect.diff', name: 'no changes' });
  return renderJunit('mcp-inspect diff', cases);
}

/**
 * JUnit XML of a check: one test case per rule exercised (`rules`), failing with its findings
 * at or above `min`; findings of rules outside `rules` (the client's own) get a case each too.
 */
export function renderCheckJunit(rules: readonly string[], findings: readonly Finding[], min: Severity): string {
  const ids = [...new Set([...rules, ...findings.map((f) => f.rule)])];
  const cases = ids.map((id): JunitCase => {
    const fs = findings.filter((f) => f.rule === id && atLeast(f.severity, min));
    if (!fs.length) return { classname: 'mcp-inspect.check', name: id };
    return {
      classname: 'mcp-inspect.check',
      name: id,
      failure: {
        type: fs[0].severity,
        message: fs.map((f) => f.message).join('; '),
        body: fs
          .map((f) => `${f.severity} ${f.rule} (spec: ${f.spec})\n${f.message}${f.evidence ? `\nevidence: ${JSON.stringify(f.evidence)}` : ''}`)
          .join('\n\n'),
      },
    };
  });
  return renderJunit('mcp-inspect check', cases);
}

const SEVERITY_MARK: Record<Severity, string> = { error: '✗ error  ', warning: '! warning', info: 'i info   ' };

/** The text report of a check: each finding with its rule, spec section and evidence, then a count. */
export function renderCheckText(findings: readonly Finding[], opts: { color: boolean; min: Severity; rules: number }): string {
  const p = createPalette(opts.color);
  const out: string[] = [];
  const order: Severity[] = ['error', 'warning', 'info'];
  const sorted = [...findings].sort((a, b) => order.indexOf(a.severity) - order.indexOf(b.severity));
  for (const f of sorted) {
    const paint = f.severity === 'error' ? p.red : f.severity === 'warning' ? p.yellow : p.dim;
    out.push(`${paint(SEVERITY_MARK[f.severity])} ${p.bold(f.rule)} ${sanitizeLine(f.message)}`);
    out.push(p.dim(`            spec: ${f.spec}`));
    // The evidence as JSON, the lines cut with a mark (the whole of it: --json).
    const line = (v: unknown) => {
      const s = sanitizeLine(typeof v === 'string' ? v : JSON.stringify(v));
      return s.length > 300 ? `${s.slice(0, 299)}…` : s;
    };
    if (f.evidence?.request) out.push(p.dim(`            request: ${line(f.evidence.request)}`));
    if (f.evidence?.requestHeaders) out.push(p.dim(`            request headers: ${line(f.evidence.requestHeaders)}`));
    if (f.evidence?.response !== undefined)
      out.push(p.dim(`            response${f.evidence.httpStatus !== undefined ? ` (HTTP ${f.evidence.httpStatus})` : ''}: ${line(f.evidence.response)}`));
  }
  const n = (s: Severity) => findings.filter((f) => f.severity === s).length;
  const failing = findings.filter((f) => atLeast(f.severity, opts.min)).length;
  out.push(
    p.bold(
      `${opts.rules} rules checked: ${n('error')} error${n('error') === 1 ? '' : 's'}, ${n('warning')} warning${n('warning') === 1 ? '' : 's'}, ${n('info')} info; ${failing ? `${failing} at or above ${opts.min}: FAIL` : `none at or above ${opts.min}: pass`}`,
    ),
  );
  return out.join('\n');
}
