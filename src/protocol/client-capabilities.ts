/**
 * The client capabilities mcp-inspect declares (`_meta["io.modelcontextprotocol/clientCapabilities"]`
 * on every modern request; `capabilities` of the legacy `initialize`), built from the user's
 * toggles (`--no-elicitation`, `--no-roots`, `--no-sampling`), and the reading of a server's
 * -32021 MissingRequiredClientCapability error. Pure.
 *
 * spec: basic/index#meta, client/elicitation#capabilities, client/roots#capabilities,
 *       client/sampling#capabilities, basic/index#error-codes (-32021)
 */
import type { Era, JsonObject } from './types.js';
import type { InputRequest } from './mrtr.js';

/** What the client is willing to be asked for. Every feature defaults to on. */
export interface ClientFeatures {
  /** Form and URL elicitation; `false` turns both off. */
  elicitation?: boolean | { form?: boolean; url?: boolean };
  roots?: boolean;
  sampling?: boolean;
  /**
   * Legacy only: declare `roots.listChanged` (the client will send
   * `notifications/roots/list_changed` when the user edits the roots; the notification does
   * not exist in 2026-07-28).
   */
  rootsListChanged?: boolean;
}

/** Everything mcp-inspect can honour. */
export const ALL_FEATURES: Readonly<Required<ClientFeatures>> = { elicitation: { form: true, url: true }, roots: true, sampling: true, rootsListChanged: true };

function elicitationModes(f: ClientFeatures['elicitation']): { form: boolean; url: boolean } {
  if (f === undefined || f === true) return { form: true, url: true };
  if (f === false) return { form: false, url: false };
  return { form: f.form !== false, url: f.url !== false };
}

/**
 * The capabilities object for `features` (absent keys = on). Elicitation is declared with its
 * modes spelled out (`{form: {}, url: {}}`) because an empty `elicitation: {}` means form only;
 * a feature turned off is left out entirely. Sampling never declares `tools` or `context`
 * (the user types a plain reply). `era: 'legacy'` adds `roots.listChanged: true` when asked.
 *
 * spec: client/elicitation#capabilities, client/roots#capabilities, client/sampling#capabilities
 */
export function buildClientCapabilities(features: ClientFeatures = {}, era: Era = 'modern'): JsonObject {
  const caps: JsonObject = {};
  const e = elicitationModes(features.elicitation);
  if (e.form || e.url) {
    const modes: JsonObject = {};
    if (e.form) modes.form = {};
    if (e.url) modes.url = {};
    caps.elicitation = modes;
  }
  if (features.roots !== false) caps.roots = era === 'legacy' && features.rootsListChanged === true ? { listChanged: true } : {};
  if (features.sampling !== false) caps.sampling = {};
  return caps;
}

/** The features the CLI flags leave on: commander's `--no-x` gives `x: false`. */
export function featuresFromFlags(flags: { elicitation?: boolean; roots?: boolean; sampling?: boolean }): ClientFeatures {
  return { elicitation: flags.elicitation !== false, roots: flags.roots !== false, sampling: flags.sampling !== false };
}

/**
 * The capability an input request needs, as a dotted path: `elicitation.form`,
 * `elicitation.url`, `sampling`, `sampling.tools` (tool-use sampling), `roots`; `undefined`
 * for an unsupported entry.
 */
export function requiredCapabilityOf(request: InputRequest): string | undefined {
  switch (request.kind) {
    case 'elicitation-form':
      return 'elicitation.form';
    case 'elicitation-url':
      return 'elicitation.url';
    case 'sampling':
      return Array.isArray(request.params.tools) || request.params.toolChoice !== undefined ? 'sampling.tools' : 'sampling';
    case 'roots':
      return 'roots';
    case 'unsupported':
      return undefined;
  }
}

const isObj = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether `capabilities` (as declared) cover `request`. An empty `elicitation: {}` covers form
 * only (spec: client/elicitation#capabilities). Used to refuse a legacy server's request for
 * a feature the user turned off, and to check a server that asks for what was not declared
 * (a spec violation: servers MUST NOT).
 */
export function capabilityCovers(capabilities: JsonObject, request: InputRequest): boolean {
  const need = requiredCapabilityOf(request);
  if (need === undefined) return false;
  const [top, sub] = need.split('.') as [string, string | undefined];
  const c = capabilities[top];
  if (!isObj(c)) return false;
  if (top === 'elicitation' && Object.keys(c).length === 0) return sub === 'form';
  return sub === undefined || isObj(c[sub]);
}

/**
 * The capabilities a -32021 error names, as dotted paths (`["elicitation.form", "roots"]`),
 * from `data.requiredCapabilities` (an object shaped like ClientCapabilities). A top-level
 * capability with an empty object is reported as itself (`roots`); `elicitation: {}` as
 * `elicitation`. Unknown shapes give `[]`. Paths are not sanitized: render with care.
 *
 * spec: basic/index#error-codes (MissingRequiredClientCapability)
 */
export function requiredCapabilitiesOf(errorData: unknown): string[] {
  const req = isObj(errorData) ? errorData.requiredCapabilities : undefined;
  if (!isObj(req)) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(req)) {
    const subs = isObj(v) ? Object.keys(v) : [];
    if (subs.length === 0) out.push(k);
    else for (const s of subs) out.push(`${k}.${s}`);
  }
  return out;
}

/** The flag that turns a capability off, for a hint next to a -32021: `elicitation.url` → `--no-elicitation`. */
export function flagFor(capabilityPath: string): string | undefined {
  const top = capabilityPath.split('.')[0];
  return top === 'elicitation' || top === 'roots' || top === 'sampling' ? `--no-${top}` : undefined;
}
