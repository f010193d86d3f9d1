/**
 * The demo's resources: a text README, a binary picture, a clock whose content changes on
 * every tick (subscribe to it to get `notifications/resources/updated`), a note that comes
 * and goes (so the resource list changes), and templates whose variables complete.
 * Transport-agnostic; the tick count is the only state.
 *
 * spec: server/resources (Resource, ResourceTemplate, ReadResourceResult, not-found -32602
 * with data.uri), server/utilities/completion (ref/resource).
 */
import type { JsonObject, Resource, ResourceTemplate } from '../protocol/types.js';
import { SUNSET_PNG_BASE64 } from './assets.js';
import { README_TEXT } from './tools-media.js';

/** One entry of `ReadResourceResult.contents`. */
export type ResourceContents = { uri: string; mimeType?: string; text?: string; blob?: string } & JsonObject;

/** A direct resource and how to read it. */
export interface DemoResource {
  resource: Resource;
  read(): ResourceContents[];
}

/** A resource template: how to match a URI, read it, and complete its variables. */
export interface DemoTemplate {
  template: ResourceTemplate;
  /** The variables of `uri` when it matches, else undefined. */
  match(uri: string): Record<string, string> | undefined;
  read(uri: string, vars: Record<string, string>): ResourceContents[];
  /** Candidate values of variable `name` (filtered by prefix by the caller). */
  values(name: string): readonly string[];
}

/** Cities the weather template completes (and whose reports it invents). */
export const CITIES = ['Amsterdam', 'Berlin', 'Lisbon', 'London', 'Madrid', 'Paris', 'Porto', 'Prague', 'Rome', 'Vienna'];
const LANGUAGES: Record<string, string> = { en: 'Hello', fr: 'Bonjour', de: 'Hallo', pt: 'Olá', es: 'Hola', it: 'Ciao' };

/** A template with one `{name}` variable per path segment; `values` lists the completions. */
export function simpleTemplate(t: ResourceTemplate, vars: Record<string, readonly string[]>, read: DemoTemplate['read']): DemoTemplate {
  const names: string[] = [];
  const pattern = t.uriTemplate.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, n: string) => {
    names.push(n);
    return '([^/?#]+)';
  });
  const re = new RegExp(`^${pattern}$`);
  return {
    template: t,
    match: (uri) => {
      const m = re.exec(uri);
      if (!m) return undefined;
      return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
    },
    read,
    values: (name) => vars[name] ?? [],
  };
}

/** The demo's resource list, with the tick count that drives the clock and the note. */
export class ResourceCatalog {
  /** Incremented on every {@link ResourceCatalog.tick}. */
  ticks = 0;

  constructor(
    private readonly extra: readonly DemoResource[] = [],
    private readonly extraTemplates: readonly DemoTemplate[] = [],
  ) {}

  private showcase(): DemoResource[] {
    const list: DemoResource[] = [
      {
        resource: {
          uri: 'demo://readme',
          name: 'readme',
          title: 'README',
          description: 'What the demo server offers (markdown text).',
          mimeType: 'text/markdown',
        },
        read: () => [{ uri: 'demo://readme', mimeType: 'text/markdown', text: README_TEXT }],
      },
      {
        resource: {
          uri: 'demo://picture.png',
          name: 'picture.png',
          title: 'A sunset',
          description: 'A 32×24 PNG picture (binary, base64 blob).',
          mimeType: 'image/png',
          size: Buffer.from(SUNSET_PNG_BASE64, 'base64').length,
        },
        read: () => [{ uri: 'demo://picture.png', mimeType: 'image/png', blob: SUNSET_PNG_BASE64 }],
      },
      {
        resource: {
          uri: 'demo://clock',
          name: 'clock',
          title: 'Clock',
          description: 'Changes on every tick of the demo server: subscribe to it to be told (notifications/resources/updated).',
          mimeType: 'text/plain',
        },
        read: () => [{ uri: 'demo://clock', mimeType: 'text/plain', text: `tick ${this.ticks}\nstatus: ${this.ticks % 2 ? 'tock' : 'tick'}\n` }],
      },
    ];
    if (this.ticks % 2 === 1) {
      list.push({
        resource: {
          uri: 'demo://notes/today',
          name: 'today',
          title: "Today's note",
          description: 'A note that comes and goes (the resource list changes).',
          mimeType: 'text/plain',
        },
        read: () => [{ uri: 'demo://notes/today', mimeType: 'text/plain', text: `Note written at tick ${this.ticks}.\n` }],
      });
    }
    return list;
  }

  private all(): DemoResource[] {
    return [...this.showcase(), ...this.extra];
  }

  /** The current list (deep copies, deterministic order). */
  resources(): Resource[] {
    return structuredClone(this.all().map((r) => r.resource));
  }

  templates(): DemoTemplate[] {
    return [
      simpleTemplate(
        {
          uriTemplate: 'demo://weather/{city}',
          name: 'weather',
          title: 'Weather by city',
          description: 'An invented weather report; {city} completes.',
          mimeType: 'text/plain',
        },
        { city: CITIES },
        (uri, v) => [{ uri, mimeType: 'text/plain', text: `Weather in ${v.city}: ${(v.city.length * 7) % 30}°C (invented).\n` }],
      ),
      simpleTemplate(
        {
          uriTemplate: 'demo://greeting/{lang}',
          name: 'greeting',
          title: 'Greeting by language',
          description: 'Hello in a language; {lang} completes (en, fr, de, …).',
          mimeType: 'text/plain',
        },
        { lang: Object.keys(LANGUAGES) },
        (uri, v) => [{ uri, mimeType: 'text/plain', text: `${LANGUAGES[v.lang] ?? `(no greeting for "${v.lang}")`}\n` }],
      ),
      ...this.extraTemplates,
    ];
  }

  /** The contents of `uri` (a listed resource or a template match), or undefined when there is none. */
  read(uri: string): ResourceContents[] | undefined {
    const direct = this.all().find((r) => r.resource.uri === uri);
    if (direct) return direct.read();
    for (const t of this.templates()) {
      const vars = t.match(uri);
      if (vars) return t.read(uri, vars);
    }
    return undefined;
  }

  /** True when `uri` names a resource that can be read (subscriptions are granted for those). */
  exists(uri: string): boolean {
    return this.read(uri) !== undefined;
  }

  /** Advances the clock; the note appears or disappears (the list changes on every tick). */
  tick(): void {
    this.ticks++;
  }
}
