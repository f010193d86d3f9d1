/**
 * The demo's tools that ask the client something before they answer: an elicitation form,
 * an elicitation URL, a sampling question, a roots question, and a slow report that legacy
 * clients may run as a task. Each asks through `ctx.ask`, which is an input round on a modern
 * request (`resultType: "input_required"`, answered by a retry) and a real server-to-client
 * request on a legacy connection (not wired yet: the demo speaks 2026-07-28 only).
 *
 * spec: basic/utilities/mrtr, client/elicitation (form and url modes), client/sampling,
 * client/roots, basic/utilities/tasks (2025-11-25, execution.taskSupport).
 */
import type { Tool } from '../protocol/types.js';
import { isObject } from '../util/json.js';
import { sleep, textResult } from './common.js';
import { describeElicit, samplingText } from './inputs.js';
import type { DemoTool } from './tools.js';

const NO_ARGS: Tool['inputSchema'] = { type: 'object', additionalProperties: false };

export const INPUT_TOOLS: readonly DemoTool[] = [
  {
    tool: {
      name: 'ask_name',
      title: 'Ask for a name (form)',
      description: 'Asks you a short form (elicitation, form mode): your name and a favourite colour, then greets you.',
      inputSchema: NO_ARGS,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    run: async (_a, ctx) => {
      const { form } = await ctx.ask({
        form: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Who is there?',
            requestedSchema: {
              type: 'object',
              properties: {
                name: { type: 'string', title: 'Name', minLength: 1 },
                colour: { type: 'string', title: 'Favourite colour', enum: ['red', 'green', 'blue'], default: 'blue' },
              },
              required: ['name'],
            },
          },
        },
      });
      const r = describeElicit(form);
      if (!r.accepted) return textResult(`No greeting: you chose ${r.action}.`);
      const name = typeof r.content.name === 'string' ? r.content.name : 'stranger';
      const colour = typeof r.content.colour === 'string' ? ` Nice choice: ${r.content.colour}.` : '';
      return textResult(`Hello, ${name}!${colour}`);
    },
  },
  {
    tool: {
      name: 'open_link',
      title: 'Open a link (url)',
      description: 'Asks you to open a page (elicitation, url mode), as a server does for a sign-in it must not see.',
      inputSchema: NO_ARGS,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    run: async (_a, ctx) => {
      const { link } = await ctx.ask({
        link: {
          method: 'elicitation/create',
          params: {
            mode: 'url',
            message: 'Please read the MCP specification page, then come back.',
            url: 'https://modelcontextprotocol.io/specification',
            elicitationId: 'demo-open-link',
          },
        },
      });
      const r = describeElicit(link);
      return textResult(r.accepted ? 'Thanks for opening the page.' : `You chose ${r.action}; nothing was opened.`);
    },
  },
  {
    tool: {
      name: 'ask_model',
      title: 'Ask the model (sampling)',
      description: 'Asks the client’s model a question (sampling/createMessage) and returns its answer.',
      inputSchema: {
        type: 'object',
        properties: { question: { type: 'string', description: 'What to ask', default: 'Write a haiku about terminals.' } },
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    run: async (a, ctx) => {
      const question = typeof a.question === 'string' && a.question ? a.question : 'Write a haiku about terminals.';
      const { answer } = await ctx.ask({
        answer: {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: question } }], maxTokens: 200 },
        },
      });
      return textResult(`The model says: ${samplingText(answer)}`);
    },
  },
  {
    tool: {
      name: 'list_roots',
      title: 'Ask for roots',
      description: 'Asks the client for its roots (roots/list) and lists them.',
      inputSchema: NO_ARGS,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    run: async (_a, ctx) => {
      const { roots } = await ctx.ask({ roots: { method: 'roots/list', params: {} } });
      const list = Array.isArray(roots?.roots) ? roots.roots.filter(isObject) : [];
      if (list.length === 0) return textResult('The client has no roots.');
      return textResult(`The client has ${list.length} root(s):\n${list.map((r) => `- ${String(r.uri)}${r.name ? ` (${String(r.name)})` : ''}`).join('\n')}`);
    },
  },
  {
    tool: {
      name: 'slow_report',
      title: 'Slow report (task)',
      description:
        'Builds a report in `steps` steps of 200 ms, with progress. Declares execution.taskSupport: optional (a task-capable client may run it as a task).',
      inputSchema: {
        type: 'object',
        properties: { steps: { type: 'integer', minimum: 1, maximum: 20, default: 5, description: 'How many steps (1–20)' } },
        additionalProperties: false,
      },
      execution: { taskSupport: 'optional' },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    run: async (a, ctx) => {
      const steps = typeof a.steps === 'number' ? a.steps : 5;
      for (let i = 1; i <= steps; i++) {
        await sleep(200, ctx.signal);
        ctx.progress?.(i, steps, `step ${i} of ${steps}`);
      }
      return textResult(`Report ready: ${steps} step(s), all green.`);
    },
  },
];
