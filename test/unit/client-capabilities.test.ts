import { describe, expect, it } from 'vitest';
import {
  buildClientCapabilities,
  capabilityCovers,
  featuresFromFlags,
  flagFor,
  requiredCapabilitiesOf,
  requiredCapabilityOf,
} from '../../src/protocol/client-capabilities.js';
import { parseInputRequest } from '../../src/protocol/mrtr.js';

describe('buildClientCapabilities', () => {
  it('declares everything by default, elicitation modes spelled out', () => {
    expect(buildClientCapabilities()).toEqual({ elicitation: { form: {}, url: {} }, roots: {}, sampling: {} });
    // as in schema/2026-07-28/examples/ClientCapabilities/elicitation-form-and-url-mode-support.json
    expect(buildClientCapabilities().elicitation).toEqual({ form: {}, url: {} });
  });
  it('turns features off one by one (--no-elicitation, --no-roots, --no-sampling)', () => {
    expect(buildClientCapabilities(featuresFromFlags({ elicitation: false }))).toEqual({ roots: {}, sampling: {} });
    expect(buildClientCapabilities(featuresFromFlags({ roots: false }))).toEqual({ elicitation: { form: {}, url: {} }, sampling: {} });
    expect(buildClientCapabilities(featuresFromFlags({ sampling: false, roots: false, elicitation: false }))).toEqual({});
  });
  it('can declare one elicitation mode', () => {
    expect(buildClientCapabilities({ elicitation: { url: false } })).toMatchObject({ elicitation: { form: {} } });
    expect(buildClientCapabilities({ elicitation: { form: false } }).elicitation).toEqual({ url: {} });
  });
  it('roots.listChanged only for legacy when asked', () => {
    expect(buildClientCapabilities({ rootsListChanged: true }).roots).toEqual({});
    expect(buildClientCapabilities({ rootsListChanged: true }, 'legacy').roots).toEqual({ listChanged: true });
  });
});

describe('capabilities and input requests', () => {
  const form = parseInputRequest('f', { method: 'elicitation/create', params: { message: 'm', requestedSchema: { type: 'object', properties: {} } } });
  const url = parseInputRequest('u', { method: 'elicitation/create', params: { mode: 'url', message: 'm', url: 'https://x' } });
  const toolSampling = parseInputRequest('s', { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1, tools: [] } });
  const roots = parseInputRequest('r', { method: 'roots/list' });
  it('names the capability each request needs', () => {
    expect([form, url, toolSampling, roots].map(requiredCapabilityOf)).toEqual(['elicitation.form', 'elicitation.url', 'sampling.tools', 'roots']);
  });
  it('an empty elicitation object covers form only', () => {
    expect(capabilityCovers({ elicitation: {} }, form)).toBe(true);
    expect(capabilityCovers({ elicitation: {} }, url)).toBe(false);
    expect(capabilityCovers(buildClientCapabilities(), url)).toBe(true);
    expect(capabilityCovers(buildClientCapabilities(), toolSampling)).toBe(false);
    expect(capabilityCovers({}, roots)).toBe(false);
  });
  it('reads -32021 data.requiredCapabilities as the SDK v2 sends it', () => {
    expect(requiredCapabilitiesOf({ requiredCapabilities: { elicitation: { form: {} } } })).toEqual(['elicitation.form']);
    expect(requiredCapabilitiesOf({ requiredCapabilities: { roots: {}, sampling: { tools: {} } } })).toEqual(['roots', 'sampling.tools']);
    expect(requiredCapabilitiesOf('junk')).toEqual([]);
    expect(flagFor('elicitation.url')).toBe('--no-elicitation');
    expect(flagFor('experimental.x')).toBeUndefined();
  });
});
