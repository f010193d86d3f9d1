/**
 * The tools, prompts and resources the official conformance suite's server scenarios call,
 * under the names the suite uses (`test_*`, `test://…`). They are listed only when the demo
 * server is started with `conformance: true` (`mcp-inspect demo-server --conformance`, or
 * MCP_INSPECT_DEMO_CONFORMANCE=1): the tour and the TUI's first screen do not show them.
 *
 * Each body does what the scenario's own description asks (see `npx conformance list` and
 * the scenario texts in @modelcontextprotocol/conformance). spec: basic/utilities/mrtr,
 * server/tools, server/prompts, server/resources.
 */
import type { JsonObject, Tool } from '../protocol/types.js';
import { isObject } from '../util/json.js';
import { CHIME_WAV_BASE64, PIXEL_PNG_BASE64 } from './assets.js';
import { sleep, textResult } from './common.js';
import { taskFixtures } from './conformance-tasks.js';
import { canAsk, describeElicit, samplingText, type InputRequest } from './inputs.js';
import type { DemoPrompt } from './prompts.js';
import { simpleTemplate, type DemoResource, type DemoTemplate } from './resources.js';
import type { DemoTool } from './tools.js';

/** The env var that lists the conformance fixtures too. */
export const CONFORMANCE_ENV = 'MCP_INSPECT_DEMO_CONFORMANCE';

/** What the trigger tools change. */
export interface ConformanceHooks {
  changeTools(): void;
  changePrompts(): void;
}

/** Everything the suite calls, to add to the demo's lists. */
export interface ConformanceFixtures {
  tools: DemoTool[];
  prompts: DemoPrompt[];
  resources: DemoResource[];
  templates: DemoTemplate[];
}

const NO_ARGS: Tool['inputSchema'] = { type: 'object', additionalProperties: false };

function tool(name: string, description: string, run: DemoTool['run']): DemoTool {
  return { tool: { name, description, inputSchema: NO_ARGS }, run };
}

const elicitName = (message = 'What is your name?'): InputRequest => ({
  method: 'elicitation/create',
  params: { message, requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
});
const sampling = (text: string, maxTokens: number): InputRequest => ({
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens },
});
const ROOTS: InputRequest = { method: 'roots/list', params: {} };

function nameOf(r: ReturnType<typeof describeElicit>): string {
  return typeof r.content.name === 'string' ? r.content.name : 'stranger';
}

/** A tool with one required string argument. */
function withString(name: string, description: string, arg: string, run: DemoTool['run']): DemoTool {
  return { tool: { name, description, inputSchema: { type: 'object', properties: { [arg]: { type: 'string' } }, required: [arg] } }, run };
}

/** The 2025-11-25 suite's question tools (server-to-client requests on a legacy session; input rounds on a modern request). */
function legacyTools(): DemoTool[] {
  const elicited = (r: ReturnType<typeof describeElicit>) => `action=${r.action}, content=${JSON.stringify(r.content)}`;
  const ask = (message: string, properties: JsonObject, required?: string[]): InputRequest => ({
    method: 'elicitation/create',
    params: { message, requestedSchema: { type: 'object', properties, ...(required ? { required } : {}) } },
  });
  return [
    withString('test_sampling', 'Asks the client’s model `prompt` (sampling/createMessage)', 'prompt', async (a, ctx) => {
      const { q } = await ctx.ask({ q: sampling(String(a.prompt), 100) });
      return textResult(`LLM response: ${samplingText(q)}`);
    }),
    withString('test_elicitation', 'Asks the user for a username and an email (elicitation/create)', 'message', async (a, ctx) => {
      const props = { username: { type: 'string', description: 'User’s response' }, email: { type: 'string', description: 'User’s email address' } };
      const { q } = await ctx.ask({ q: ask(String(a.message), props, ['username', 'email']) });
      return textResult(`User response: ${elicited(describeElicit(q))}`);
    }),
    tool('test_elicitation_sep1034_defaults', 'Asks a form whose every field has a default (SEP-1034)', async (_a, ctx) => {
      const props = {
        name: { type: 'string', default: 'John Doe' },
        age: { type: 'integer', default: 30 },
        score: { type: 'number', default: 95.5 },
        status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
        verified: { type: 'boolean', default: true },
      };
      const { q } = await ctx.ask({ q: ask('Please review and update the form fields with defaults', props) });
      return textResult(`Elicitation completed: ${elicited(describeElicit(q))}`);
    }),
    tool('test_elicitation_sep1330_enums', 'Asks a form with the five enum shapes (SEP-1330)', async (_a, ctx) => {
      const options = (prefix: string, titles: string[]) => titles.map((title, i) => ({ const: `${prefix}${i + 1}`, title }));
      const props = {
        untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
        titledSingle: { type: 'string', oneOf: options('value', ['First Option', 'Second Option', 'Third Option']) },
        legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
        untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
        titledMulti: { type: 'array', items: { anyOf: options('value', ['First Choice', 'Second Choice', 'Third Choice']) } },
      };
      const { q } = await ctx.ask({ q: ask('Please select options from the enum fields', props) });
      return textResult(`Elicitation completed: ${elicited(describeElicit(q))}`);
    }),
  ];
}

function tools(h: ConformanceHooks): DemoTool[] {
  return [
    tool('test_simple_text', 'Returns one text block', () => Promise.resolve(textResult('This is a simple text response for testing.'))),
    tool('test_image_content', 'Returns one image block', () =>
      Promise.resolve({ content: [{ type: 'image', data: PIXEL_PNG_BASE64, mimeType: 'image/png' }] }),
    ),
    tool('test_audio_content', 'Returns one audio block', () =>
      Promise.resolve({ content: [{ type: 'audio', data: CHIME_WAV_BASE64, mimeType: 'audio/wav' }] }),
    ),
    tool('test_embedded_resource', 'Returns one embedded resource', () =>
      Promise.resolve({
        content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
      }),
    ),
    tool('test_multiple_content_types', 'Returns text, an image and an embedded resource', () =>
      Promise.resolve({
        content: [
          { type: 'text', text: 'Multiple content types test:' },
          { type: 'image', data: PIXEL_PNG_BASE64, mimeType: 'image/png' },
          {
            type: 'resource',
            resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) },
          },
        ],
      }),
    ),
    tool('test_error_handling', 'Always returns a tool error (isError)', () =>
      Promise.resolve(textResult('This tool intentionally returns an error for testing', true)),
    ),
    tool('test_tool_with_progress', 'Reports progress 0, 50, 100 of 100', async (_a, ctx) => {
      for (const p of [0, 50, 100]) {
        ctx.progress?.(p, 100, `Completed step ${p} of 100`);
        if (p < 100) await sleep(50, ctx.signal);
      }
      return textResult('Progress test completed');
    }),
    ...['test_tool_with_logging', 'test_logging_tool'].map((name) =>
      tool(name, 'Sends three info log messages (only when the request asks for a log level)', async (_a, ctx) => {
        for (const [i, m] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
          ctx.log('info', m);
          if (i < 2) await sleep(20, ctx.signal);
        }
        return textResult('Tool with logging executed successfully');
      }),
    ),
    ...legacyTools(),
    tool('test_missing_capability', 'Needs sampling: a request that does not declare it gets -32021', async (_a, ctx) => {
      const { q } = await ctx.ask({ q: sampling('Say hi', 10) });
      return textResult(samplingText(q));
    }),
    tool('test_streaming_elicitation', 'Asks an elicitation through an input round (never a request on the stream)', async (_a, ctx) => {
      const { q } = await ctx.ask({ q: elicitName() });
      return textResult(`Hello, ${nameOf(describeElicit(q))}!`);
    }),
    tool('test_trigger_tool_change', 'Changes the tool list (notifies listen streams)', () => {
      h.changeTools();
      return Promise.resolve(textResult('Tool list changed'));
    }),
    tool('test_trigger_prompt_change', 'Changes the prompt list (notifies listen streams)', () => {
      h.changePrompts();
      return Promise.resolve(textResult('Prompt list changed'));
    }),
    tool('test_input_required_result_elicitation', 'Asks the user name (elicitation)', async (_a, ctx) => {
      const { user_name } = await ctx.ask({ user_name: elicitName() });
      return textResult(`Hello, ${nameOf(describeElicit(user_name))}!`);
    }),
    tool('test_input_required_result_sampling', 'Asks the model a question (sampling)', async (_a, ctx) => {
      const { capital_question } = await ctx.ask({ capital_question: sampling('What is the capital of France?', 100) });
      return textResult(samplingText(capital_question));
    }),
    tool('test_input_required_result_list_roots', 'Asks for the roots', async (_a, ctx) => {
      const { client_roots } = await ctx.ask({ client_roots: ROOTS });
      const roots = Array.isArray(client_roots.roots) ? client_roots.roots.filter(isObject) : [];
      return textResult(`Roots: ${roots.map((r) => String(r.uri)).join(', ') || '(none)'}`);
    }),
    tool('test_input_required_result_request_state', 'Asks a confirmation and round-trips requestState', async (_a, ctx) => {
      await ctx.ask({
        confirm: {
          method: 'elicitation/create',
          params: { message: 'Please confirm', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } },
        },
      });
      return textResult('state-ok: the requestState came back intact');
    }),
    tool('test_input_required_result_multiple_inputs', 'Asks an elicitation, a sampling and the roots at once', async (_a, ctx) => {
      const r = await ctx.ask({ user_name: elicitName(), greeting: sampling('Generate a greeting', 50), client_roots: ROOTS });
      return textResult(`${samplingText(r.greeting)} ${nameOf(describeElicit(r.user_name))}`);
    }),
    tool('test_input_required_result_multi_round', 'Asks in two rounds (name, then colour)', async (_a, ctx) => {
      const { step1 } = await ctx.ask({ step1: elicitName('Step 1: What is your name?') });
      const { step2 } = await ctx.ask({
        step2: {
          method: 'elicitation/create',
          params: {
            message: 'Step 2: What is your favorite color?',
            requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
          },
        },
      });
      return textResult(`${nameOf(describeElicit(step1))} likes ${String(describeElicit(step2).content.color)}`);
    }),
    tool('test_input_required_result_tampered_state', 'Asks a confirmation; a tampered requestState is -32602', async (_a, ctx) => {
      await ctx.ask({
        confirm: {
          method: 'elicitation/create',
          params: { message: 'Please confirm', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } },
        },
      });
      return textResult('state verified');
    }),
    tool('test_input_required_result_capabilities', 'Asks only what the client declared (sampling and/or elicitation)', async (_a, ctx) => {
      const wanted: Record<string, InputRequest> = { q_sampling: sampling('Say hi', 10), q_elicitation: elicitName() };
      const asked = Object.fromEntries(Object.entries(wanted).filter(([, r]) => canAsk(r, ctx.clientCapabilities)));
      if (Object.keys(asked).length === 0) return textResult('The client declared neither sampling nor elicitation: nothing to ask.');
      await ctx.ask(asked);
      return textResult(`Answered: ${Object.keys(asked).join(', ')}`);
    }),
  ];
}

const text = (t: string) => ({ role: 'user' as const, content: { type: 'text', text: t } });

function prompts(): DemoPrompt[] {
  return [
    {
      prompt: { name: 'test_simple_prompt', description: 'A prompt without arguments' },
      get: () => Promise.resolve({ messages: [text('This is a simple prompt for testing.')] }),
    },
    {
      prompt: {
        name: 'test_prompt_with_arguments',
        description: 'A prompt with two required arguments',
        arguments: [
          { name: 'arg1', description: 'First test argument', required: true },
          { name: 'arg2', description: 'Second test argument', required: true },
        ],
      },
      get: (a) => Promise.resolve({ messages: [text(`Prompt with arguments: arg1='${a.arg1}', arg2='${a.arg2}'`)] }),
      values: (n) => (n === 'arg1' ? ['paris', 'park', 'party', 'test'] : n === 'arg2' ? ['world'] : []),
    },
    {
      prompt: {
        name: 'test_prompt_with_embedded_resource',
        description: 'A prompt that embeds the resource named by resourceUri',
        arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
      },
      get: (a) =>
        Promise.resolve({
          messages: [
            {
              role: 'user',
              content: { type: 'resource', resource: { uri: a.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } },
            },
            text('Please process the embedded resource above.'),
          ],
        }),
    },
    {
      prompt: { name: 'test_prompt_with_image', description: 'A prompt with an image' },
      get: () =>
        Promise.resolve({
          messages: [{ role: 'user', content: { type: 'image', data: PIXEL_PNG_BASE64, mimeType: 'image/png' } }, text('Please analyze the image above.')],
        }),
    },
    {
      prompt: { name: 'test_input_required_result_prompt', description: 'A prompt that asks a context first (elicitation)' },
      get: async (_a, ctx) => {
        const { user_context } = await ctx.ask({
          user_context: {
            method: 'elicitation/create',
            params: {
              message: 'What context should the prompt use?',
              requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
            },
          },
        });
        const c = describeElicit(user_context).content.context;
        return { messages: [text(`Use this context: ${typeof c === 'string' ? c : '(none)'}`)] };
      },
    },
  ];
}

function resources(): DemoResource[] {
  const r = (uri: string, name: string, mimeType: string, body: { text: string } | { blob: string }): DemoResource => ({
    resource: { uri, name, description: `Conformance fixture ${name}`, mimeType },
    read: () => [{ uri, mimeType, ...body }],
  });
  return [
    r('test://static-text', 'static-text', 'text/plain', { text: 'This is the content of the static text resource.' }),
    r('test://static-binary', 'static-binary', 'image/png', { blob: PIXEL_PNG_BASE64 }),
    r('test://watched-resource', 'watched-resource', 'text/plain', { text: 'Watched resource content' }),
  ];
}

function templates(): DemoTemplate[] {
  return [
    simpleTemplate(
      { uriTemplate: 'test://template/{id}/data', name: 'template-data', description: 'Conformance fixture: data by id', mimeType: 'application/json' },
      { id: ['123', '456'] },
      (uri, v) => [{ uri, mimeType: 'application/json', text: JSON.stringify({ id: v.id, templateTest: true, data: `Data for ID: ${v.id}` }) }],
    ),
  ];
}

/** The fixtures, wired to `hooks` for the trigger tools. */
export function conformanceFixtures(hooks: ConformanceHooks): ConformanceFixtures {
  return { tools: [...tools(hooks), ...taskFixtures()], prompts: prompts(), resources: resources(), templates: templates() };
}

/** True when the env asks for the fixtures (`1`, `true`, `yes`). */
export function conformanceFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return /^(1|true|yes)$/i.test(env[CONFORMANCE_ENV] ?? '');
}
