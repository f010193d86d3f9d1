/**
 * The demo's prompts: one with arguments that complete, one that embeds a resource, one with
 * an image, and one that comes and goes (so the prompt list changes). A prompt body may ask
 * the client through an input round like a tool.
 *
 * spec: server/prompts (Prompt, GetPromptResult, PromptMessage), server/utilities/completion
 * (ref/prompt).
 */
import type { JsonObject, Prompt } from '../protocol/types.js';
import { SUNSET_PNG_BASE64 } from './assets.js';
import type { AskFn } from './inputs.js';
import type { LogFn } from './tools.js';
import { README_TEXT } from './tools-media.js';

/** What a prompt body may use besides its arguments. */
export interface PromptContext {
  ask: AskFn;
  log: LogFn;
}

/** `GetPromptResult` without `resultType`/`_meta`. */
export interface PromptResult {
  description?: string;
  messages: { role: 'user' | 'assistant'; content: JsonObject }[];
  [k: string]: unknown;
}

/** A prompt, its body, and the completion values of its arguments. */
export interface DemoPrompt {
  prompt: Prompt;
  get(args: Record<string, string>, ctx: PromptContext): Promise<PromptResult>;
  /** Candidate values of argument `name` (filtered by prefix by the caller). */
  values?(name: string): readonly string[];
}

const STYLES = ['casual', 'formal', 'pirate', 'poetic'];
const LANGS = ['English', 'French', 'German', 'Portuguese', 'Spanish'];

const user = (content: JsonObject) => ({ role: 'user' as const, content });

const GREET: DemoPrompt = {
  prompt: {
    name: 'greet',
    title: 'Greet someone',
    description: 'A greeting for `name` in a `style` (casual, formal, pirate, poetic) and a `language`; style and language complete.',
    arguments: [
      { name: 'name', description: 'Who to greet', required: true },
      { name: 'style', description: 'casual, formal, pirate or poetic (default casual)' },
      { name: 'language', description: 'Language of the greeting (default English)' },
    ],
  },
  get: (a) =>
    Promise.resolve({
      description: `A ${a.style || 'casual'} greeting`,
      messages: [user({ type: 'text', text: `Write a ${a.style || 'casual'} greeting for ${a.name} in ${a.language || 'English'}, two sentences at most.` })],
    }),
  values: (name) => (name === 'style' ? STYLES : name === 'language' ? LANGS : []),
};

const REVIEW: DemoPrompt = {
  prompt: {
    name: 'review_readme',
    title: 'Review the README',
    description: 'Embeds the demo://readme resource and asks for a review.',
    arguments: [{ name: 'focus', description: 'What to look at (clarity, tone, length)' }],
  },
  get: (a) =>
    Promise.resolve({
      messages: [
        user({ type: 'resource', resource: { uri: 'demo://readme', mimeType: 'text/markdown', text: README_TEXT } }),
        user({ type: 'text', text: `Review the README above${a.focus ? `, focusing on ${a.focus}` : ''}.` }),
      ],
    }),
  values: (name) => (name === 'focus' ? ['clarity', 'length', 'tone'] : []),
};

const PICTURE: DemoPrompt = {
  prompt: { name: 'describe_picture', title: 'Describe a picture', description: 'Shows the sunset picture and asks for a description.' },
  get: () =>
    Promise.resolve({
      messages: [
        user({ type: 'image', data: SUNSET_PNG_BASE64, mimeType: 'image/png' }),
        user({ type: 'text', text: 'Describe the picture above in one sentence.' }),
      ],
    }),
};

const HAIKU: DemoPrompt = {
  prompt: { name: 'haiku', title: 'Haiku of the moment', description: 'A prompt that comes and goes: the prompt list changes while you watch.' },
  get: () => Promise.resolve({ messages: [user({ type: 'text', text: 'Write a haiku about a list that keeps changing.' })] }),
};

/** The demo's prompt list: `haiku` is there on every other change. Deterministic order. */
export class PromptCatalog {
  /** Incremented on every {@link PromptCatalog.advance}. */
  generation = 0;

  constructor(private readonly extra: readonly DemoPrompt[] = []) {}

  private all(): DemoPrompt[] {
    return [GREET, REVIEW, PICTURE, ...(this.generation % 2 === 1 ? [HAIKU] : []), ...this.extra];
  }

  /** The current list (deep copies). */
  prompts(): Prompt[] {
    return structuredClone(this.all().map((p) => p.prompt));
  }

  find(name: string): DemoPrompt | undefined {
    return this.all().find((p) => p.prompt.name === name);
  }

  advance(): void {
    this.generation++;
  }
}
