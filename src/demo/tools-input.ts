/**
 * The demo's tools that ask the client something before they answer: an elicitation form,
 * an elicitation URL, a sampling question, a roots question, and `research`, which a
 * task-capable client runs as a task (src/demo/tasks.ts). Each asks through `ctx.ask`, which
 * is an input round on a modern request (`resultType: "input_required"`, answered by a retry)
 * and a real server-to-client request on a legacy session (src/demo/legacy.ts).
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
      name: 'research',
      title: 'Research a topic (task)',
      description:
        'Researches `topic` in `steps` steps of half a second, with progress and log messages, then returns a short summary. ' +
        'execution.taskSupport: optional: a task-capable client runs it as a task (legacy: params.task; modern: the ' +
        'io.modelcontextprotocol/tasks extension) and polls it; any other client simply waits for the result.',
      inputSchema: {
        type: 'object',
        properties: {
          topic: { type: 'string', minLength: 1, description: 'What to research, e.g. "tide pools"' },
          steps: { type: 'integer', minimum: 1, maximum: 10, default: 5, description: 'How many steps (1–10), half a second each' },
          // A multi-select (the elicitation spec's shape, as a tool argument): checkboxes in the TUI, `sources=web sources=news` in the CLI.
          sources: {
            type: 'array',
            title: 'Sources',
            items: { type: 'string', enum: ['web', 'papers', 'news', 'archives'] },
            uniqueItems: true,
            minItems: 1,
            maxItems: 3,
            default: ['web'],
            description: 'Where to look (1 to 3 of them)',
          },
        },
        required: ['topic'],
        additionalProperties: false,
      },
      execution: { taskSupport: 'optional' },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    run: async (a, ctx) => {
      const topic = a.topic as string;
      const steps = typeof a.steps === 'number' ? a.steps : 5;
      const sources = Array.isArray(a.sources) && a.sources.length ? a.sources.map(String) : ['web'];
      ctx.log('info', `research on "${topic}": ${steps} step(s)`);
      for (let i = 1; i <= steps; i++) {
        const what = RESEARCH_STEPS[(i - 1) % RESEARCH_STEPS.length];
        ctx.progress?.(i - 1, steps, `${what} (step ${i} of ${steps})`);
        ctx.log('debug', `step ${i}: ${what}`);
        await sleep(500, ctx.signal);
      }
      ctx.progress?.(steps, steps, 'done');
      return textResult(
        `Research on "${topic}" (${steps} step(s) in ${sources.join(', ')}, invented by the mcp-inspect demo server):\n` +
          `- ${topic} has been studied for a long time, and people still disagree about it.\n` +
          `- Three sources agree on the basics; one adds a surprising detail.\n` +
          `- Next step: read the primary sources yourself.`,
      );
    },
  },
];

/** What `research` says it is doing at each step. */
const RESEARCH_STEPS = ['finding sources', 'reading', 'taking notes', 'cross-checking', 'writing the summary'];
