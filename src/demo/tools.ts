/**
 * The demo server's tools: their definitions, the cycling catalog whose list changes over
 * time (so `watch` and the TUI have something to show), argument checking and the tool
 * bodies. Transport-agnostic: no sockets, no streams here; time only through `setTimeout`
 * in `countdown`, which honors an AbortSignal.
 *
 * spec: server/tools (Tool, CallToolResult, structuredContent/outputSchema, isError),
 * basic/transports/streamable-http#custom-headers-from-tool-parameters (x-mcp-header).
 */
import type { LogLevel } from '../protocol/constants.js';
import type { CallToolResult, JsonObject, Tool } from '../protocol/types.js';
import { CancelledError, sleep, textResult as text, ToolCallError } from './common.js';
import type { AskFn } from './inputs.js';
import { INPUT_TOOLS } from './tools-input.js';
import { MEDIA_TOOLS } from './tools-media.js';

export { CancelledError, ToolCallError };

/** Sends one `notifications/progress` for the current call: `progress` of `total` steps. */
export type ProgressFn = (progress: number, total?: number, message?: string) => void;
/** Sends one `notifications/message` for the current request; dropped when below the level the client asked for (or it asked none). */
export type LogFn = (level: LogLevel, data: unknown) => void;

/** What a tool body may use besides its arguments. */
export interface ToolContext {
  /** Aborted when the request is cancelled (stdio `notifications/cancelled`, HTTP stream closed) or the server closes. */
  signal: AbortSignal;
  /** Present only when the request carried a `progressToken`. */
  progress?: ProgressFn;
  /** Always present; sends only what the requested log level lets through (nothing when none was requested). */
  log: LogFn;
  /** Asks the client (elicitation, sampling, roots): an input round. */
  ask: AskFn;
  /** The capabilities the client declared for this request. */
  clientCapabilities: JsonObject;
  /** The current state of the request's signed input round (modern), for tools that show it. */
  requestState?: () => string;
}

/** A tool and its body. */
export interface DemoTool {
  tool: Tool;
  run(args: JsonObject, ctx: ToolContext): Promise<CallToolResult>;
  /**
   * Task-supporting tools only: what to ask before the task is created, in the request
   * itself (a modern input round, SEP-2663's MRTR-then-task composition); its answer is
   * merged into the arguments `run` gets.
   */
  gather?(args: JsonObject, ctx: ToolContext): Promise<JsonObject>;
}

const NO_SIDE_EFFECTS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

function echoTool(title: string): Tool {
  return {
    name: 'echo',
    title,
    description: 'Echoes your text back as a text block. The simplest possible tool: try it first.',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', description: 'The text to send back' } },
      required: ['text'],
      additionalProperties: false,
    },
    annotations: NO_SIDE_EFFECTS,
  };
}

const ADD: Tool = {
  name: 'add',
  title: 'Add two numbers',
  description: 'Adds a and b. Returns structured content {sum} that matches the output schema, plus the same JSON as text.',
  inputSchema: {
    type: 'object',
    properties: {
      a: { type: 'number', description: 'First addend' },
      b: { type: 'number', description: 'Second addend' },
    },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: { sum: { type: 'number', description: 'a + b' } },
    required: ['sum'],
    additionalProperties: false,
  },
  annotations: NO_SIDE_EFFECTS,
};

const COUNTDOWN: Tool = {
  name: 'countdown',
  title: 'Countdown',
  description:
    'Counts down from `from` to liftoff, waiting `delayMs` between steps. Sends a progress notification per step when the request carries a progressToken. Cancel it midway to see cancellation.',
  inputSchema: {
    type: 'object',
    properties: {
      from: { type: 'integer', minimum: 1, maximum: 10, default: 3, description: 'Where to start counting (1–10)' },
      delayMs: { type: 'integer', minimum: 0, maximum: 5000, default: 300, description: 'Pause between steps, in milliseconds' },
    },
    additionalProperties: false,
  },
  annotations: NO_SIDE_EFFECTS,
};

const WEATHER: Tool = {
  name: 'weather',
  title: 'Weather (made up)',
  description:
    'Returns an invented weather report for a city. The `region` argument is mirrored into the `Mcp-Param-Region` HTTP header (x-mcp-header), which the server checks against the body.',
  inputSchema: {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 1, description: 'City name, e.g. "Lisbon"' },
      region: { type: 'string', minLength: 1, description: 'Routing region, e.g. "eu-west"', 'x-mcp-header': 'Region' },
      units: { type: 'string', enum: ['metric', 'imperial'], default: 'metric', description: 'Temperature and wind units' },
    },
    required: ['city', 'region'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

const FAIL: Tool = {
  name: 'fail',
  title: 'Always fails',
  description: 'Returns a tool execution error (isError: true) carrying your message, to show how failures look. Not a protocol error.',
  inputSchema: {
    type: 'object',
    properties: { message: { type: 'string', description: 'What the error should say' } },
    additionalProperties: false,
  },
  annotations: NO_SIDE_EFFECTS,
};

const BETA_V1: Tool = {
  name: 'beta_feature',
  title: 'Beta feature',
  description: 'An experimental search that just appeared in the tool list. Try calling it before it changes!',
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string', description: 'What to search for' } },
    required: ['query'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

const BETA_V2: Tool = {
  name: 'beta_feature',
  title: 'Beta feature',
  description: 'An experimental search, now with an optional result limit. It will be gone soon.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What to search for' },
      limit: { type: 'integer', minimum: 1, maximum: 10, default: 3, description: 'How many results to return (optional)' },
    },
    required: ['query'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

/**
 * The showcase tools that are always there, in list order (the deterministic order the
 * spec asks for): the basics, then the content kinds, then the input rounds.
 */
function baseTools(echoTitle: string): readonly Tool[] {
  return [echoTool(echoTitle), ADD, COUNTDOWN, WEATHER, FAIL, ...MEDIA_TOOLS.map((t) => t.tool), ...INPUT_TOOLS.map((t) => t.tool)];
}

/**
 * The states the tool list cycles through, one step per change interval:
 * 0 base list → 1 `beta_feature` appears → 2 its description and inputSchema change (new
 * optional `limit`) → 3 it disappears and `echo`'s title changes → back to 0 (title back).
 */
const STATES: ReadonlyArray<readonly Tool[]> = [baseTools('Echo'), [...baseTools('Echo'), BETA_V1], [...baseTools('Echo'), BETA_V2], baseTools('Echo back')];

/** Number of distinct states of the demo tool list (the cycle length). */
export const DEMO_STATE_COUNT = STATES.length;

/**
 * The demo's current tool list. Every state differs from the previous one, so each
 * {@link DemoCatalog.advance} is a real change worth a `notifications/tools/list_changed`.
 * The order is deterministic (spec: server/tools#capabilities: SHOULD).
 */
export class DemoCatalog {
  private state = 0;
  /** Incremented on every change; 0 at start. */
  generation = 0;

  /** @param extra tools listed after the showcase ones (the conformance suite's test tools), with their bodies */
  constructor(private readonly extra: readonly DemoTool[] = []) {}

  /** A deep copy of the current list (callers may mutate it freely). */
  tools(): Tool[] {
    return structuredClone([...STATES[this.state], ...this.extra.map((t) => t.tool)]);
  }

  /** The current definition of `name` (a deep copy), or undefined. */
  find(name: string): Tool | undefined {
    const t = STATES[this.state].find((x) => x.name === name) ?? this.extra.find((x) => x.tool.name === name)?.tool;
    return t ? structuredClone(t) : undefined;
  }

  /** The body of an extra or media/input tool, when `name` is one. */
  body(name: string): DemoTool | undefined {
    return this.extra.find((x) => x.tool.name === name) ?? [...MEDIA_TOOLS, ...INPUT_TOOLS].find((x) => x.tool.name === name);
  }

  /** Moves to the next state of the cycle. */
  advance(): void {
    this.state = (this.state + 1) % STATES.length;
    this.generation++;
  }
}

/**
 * Checks `args` against one of the demo's own input schemas (the small subset they use:
 * object root, `properties`, `required`, `additionalProperties: false`, property `type`
 * string/number/integer/boolean, `enum`, `minimum`/`maximum`, `minLength`; an array of enum
 * items with `uniqueItems`, `minItems`/`maxItems`). Returns the
 * first problem as a sentence, or undefined when the arguments fit.
 */
export function checkArguments(schema: JsonObject, args: JsonObject): string | undefined {
  const props = (schema.properties ?? {}) as Record<string, JsonObject>;
  for (const req of (schema.required as string[] | undefined) ?? []) {
    if (args[req] === undefined || args[req] === null) return `missing required argument '${req}'`;
  }
  for (const [key, value] of Object.entries(args)) {
    const p = props[key];
    if (!p) {
      if (schema.additionalProperties === false) return `unexpected argument '${key}' (expected: ${Object.keys(props).join(', ') || 'none'})`;
      continue;
    }
    if (value === undefined) continue;
    const type = p.type;
    if (type === 'string' && typeof value !== 'string') return `'${key}' must be a string`;
    if (type === 'boolean' && typeof value !== 'boolean') return `'${key}' must be a boolean`;
    if (type === 'number' && (typeof value !== 'number' || !Number.isFinite(value))) return `'${key}' must be a number`;
    if (type === 'integer' && (typeof value !== 'number' || !Number.isInteger(value))) return `'${key}' must be an integer`;
    if (Array.isArray(p.enum) && !p.enum.includes(value)) return `'${key}' must be one of ${p.enum.map((e) => JSON.stringify(e)).join(', ')}`;
    if (type === 'array') {
      if (!Array.isArray(value)) return `'${key}' must be an array`;
      const items = (p.items ?? {}) as JsonObject;
      const list: unknown[] = value;
      if (Array.isArray(items.enum) && list.some((v) => !(items.enum as unknown[]).includes(v)))
        return `'${key}' items must be one of ${(items.enum as unknown[]).map((e) => JSON.stringify(e)).join(', ')}`;
      if (p.uniqueItems === true && new Set(list.map((v) => JSON.stringify(v))).size < list.length) return `'${key}' must not repeat an item`;
      if (typeof p.minItems === 'number' && list.length < p.minItems) return `'${key}' needs at least ${p.minItems} item(s)`;
      if (typeof p.maxItems === 'number' && list.length > p.maxItems) return `'${key}' takes at most ${p.maxItems} item(s)`;
    }
    if (typeof value === 'number') {
      if (typeof p.minimum === 'number' && value < p.minimum) return `'${key}' must be at least ${p.minimum}`;
      if (typeof p.maximum === 'number' && value > p.maximum) return `'${key}' must be at most ${p.maximum}`;
    }
    if (typeof value === 'string' && typeof p.minLength === 'number' && value.length < p.minLength) return `'${key}' must not be empty`;
  }
  return undefined;
}

/** A small deterministic hash, so the same city always gets the same invented weather. */
function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

const SKIES = ['clear skies', 'a few clouds', 'partly cloudy', 'overcast', 'light rain', 'showers', 'fog', 'a light breeze and sunshine'];

function weather(city: string, region: string, units: string): string {
  const h = hash(city.trim().toLowerCase());
  const celsius = (h % 35) - 5;
  const windKmh = (h >>> 8) % 40;
  const sky = SKIES[(h >>> 16) % SKIES.length];
  const temp = units === 'imperial' ? `${Math.round((celsius * 9) / 5 + 32)}°F` : `${celsius}°C`;
  const wind = units === 'imperial' ? `${Math.round(windKmh * 0.621)} mph` : `${windKmh} km/h`;
  return `Weather in ${city} (${region}): ${temp}, ${sky}, wind ${wind}.\n(Invented by the mcp-inspect demo server: not a forecast.)`;
}

/**
 * Runs one tool of the current `catalog` state.
 *
 * - Unknown tool, or `args` not an object → throws {@link ToolCallError} (JSON-RPC -32602:
 *   spec server/tools#error-handling, "protocol errors").
 * - Arguments that do not fit the inputSchema → a result with `isError: true` (spec:
 *   "input validation errors" are tool execution errors, so a model can self-correct).
 * - Cancellation through `ctx.signal` → rejects with {@link CancelledError}.
 *
 * Returns a CallToolResult without `resultType`/`_meta` (the caller adds them).
 */
export async function callDemoTool(catalog: DemoCatalog, name: unknown, args: unknown, ctx: ToolContext): Promise<CallToolResult> {
  if (typeof name !== 'string') throw new ToolCallError('tools/call needs params.name (a string)');
  const tool = catalog.find(name);
  if (!tool) throw new ToolCallError(`Unknown tool: ${name}`);
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
    throw new ToolCallError(`Invalid arguments for tool ${name}: params.arguments must be an object`);
  }
  const a = (args ?? {}) as JsonObject;
  const problem = checkArguments(tool.inputSchema, a);
  if (problem) return text(`Invalid arguments for tool ${name}: ${problem}.`, true);
  const body = catalog.body(name);
  if (body) return body.run(a, ctx);

  switch (name) {
    case 'echo':
      return text(a.text as string);
    case 'add': {
      const sum = (a.a as number) + (a.b as number);
      return { content: [{ type: 'text', text: JSON.stringify({ sum }) }], structuredContent: { sum } };
    }
    case 'countdown': {
      const from = (a.from as number | undefined) ?? 3;
      const delayMs = (a.delayMs as number | undefined) ?? 300;
      ctx.log('info', `countdown from ${from}, ${delayMs} ms per step`);
      for (let n = from, step = 1; n >= 1; n--, step++) {
        if (ctx.signal.aborted) throw new CancelledError();
        ctx.progress?.(step, from, `${n}…`);
        ctx.log('debug', `T-${n}`);
        await sleep(delayMs, ctx.signal);
      }
      return text(`Liftoff! Counted down from ${from}.`);
    }
    case 'weather':
      return text(weather(a.city as string, a.region as string, (a.units as string | undefined) ?? 'metric'));
    case 'fail':
      return text(typeof a.message === 'string' && a.message ? a.message : 'Something went wrong (on purpose).', true);
    case 'beta_feature': {
      const limit = (a.limit as number | undefined) ?? 3;
      const hits = Array.from({ length: limit }, (_, i) => `${i + 1}. ${a.query as string}, result ${String.fromCharCode(65 + i)}`);
      return text(`Beta results for "${a.query as string}":\n${hits.join('\n')}`);
    }
    default:
      throw new ToolCallError(`Unknown tool: ${name}`);
  }
}
