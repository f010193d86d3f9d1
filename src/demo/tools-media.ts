/**
 * The demo's tools that show each content kind a CallToolResult can carry: an image, audio,
 * an embedded resource, a resource link, several kinds at once, and log messages at every
 * level. spec: server/tools#tool-result (content blocks), server/utilities/logging.
 */
import { LOG_LEVELS } from '../protocol/constants.js';
import type { Tool } from '../protocol/types.js';
import { CHIME_WAV_BASE64, SUNSET_PNG_BASE64 } from './assets.js';
import { textResult } from './common.js';
import type { DemoTool } from './tools.js';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const NO_ARGS: Tool['inputSchema'] = { type: 'object', additionalProperties: false };

/** The README resource, embedded by `embed_resource` and `mixed_content` (same text as `demo://readme`). */
export const README_TEXT =
  '# The mcp-inspect demo server\n\nEverything mcp-inspect can show, in one server: tools with every content kind, input rounds,\n' +
  'resources (text and binary) with a template and subscriptions, prompts with arguments and\ncompletions, log messages, and lists that change while you watch.\n';

export const MEDIA_TOOLS: readonly DemoTool[] = [
  {
    tool: {
      name: 'picture',
      title: 'A picture',
      description: 'Returns a small PNG picture (a sunset, 32×24) as an image content block. The TUI draws it.',
      inputSchema: NO_ARGS,
      annotations: READ_ONLY,
    },
    run: () => Promise.resolve({ content: [{ type: 'image', data: SUNSET_PNG_BASE64, mimeType: 'image/png' }] }),
  },
  {
    tool: {
      name: 'chime',
      title: 'A chime',
      description: 'Returns a 0.2 s 440 Hz chime (WAV) as an audio content block.',
      inputSchema: NO_ARGS,
      annotations: READ_ONLY,
    },
    run: () => Promise.resolve({ content: [{ type: 'audio', data: CHIME_WAV_BASE64, mimeType: 'audio/wav' }] }),
  },
  {
    tool: {
      name: 'embed_resource',
      title: 'Embed a resource',
      description: 'Returns the demo README as an embedded resource, plus a resource_link to the picture resource.',
      inputSchema: NO_ARGS,
      annotations: READ_ONLY,
    },
    run: () =>
      Promise.resolve({
        content: [
          { type: 'resource', resource: { uri: 'demo://readme', mimeType: 'text/markdown', text: README_TEXT } },
          { type: 'resource_link', uri: 'demo://picture.png', name: 'picture.png', mimeType: 'image/png', description: 'The sunset, as a resource' },
        ],
      }),
  },
  {
    tool: {
      name: 'mixed_content',
      title: 'Mixed content',
      description: 'Returns text, an image, audio and an embedded JSON resource in one result.',
      inputSchema: NO_ARGS,
      annotations: READ_ONLY,
    },
    run: () =>
      Promise.resolve({
        content: [
          { type: 'text', text: 'One result, four kinds of content:' },
          { type: 'image', data: SUNSET_PNG_BASE64, mimeType: 'image/png' },
          { type: 'audio', data: CHIME_WAV_BASE64, mimeType: 'audio/wav' },
          { type: 'resource', resource: { uri: 'demo://stats.json', mimeType: 'application/json', text: JSON.stringify({ kinds: 4, ok: true }) } },
        ],
      }),
  },
  {
    tool: {
      name: 'log_levels',
      title: 'Log at every level',
      description:
        'Sends one notifications/message at each of the eight levels, debug to emergency. Only those at or above the level the request asks for (_meta logLevel) arrive.',
      inputSchema: NO_ARGS,
      annotations: READ_ONLY,
    },
    run: (_a, ctx) => {
      for (const level of LOG_LEVELS) ctx.log(level, `a ${level} message from the demo server`);
      return Promise.resolve(textResult(`Sent one message at each of ${LOG_LEVELS.length} levels; you see those at or above the level you asked for.`));
    },
  },
];
