/**
 * The client face of a viewer (`mcp-inspect attach NAME`): an {@link InspectorClient} that
 * sends nothing to the server. Its description and lists are the host's (./host-view.ts); what
 * would need a request of its own (a call, a read, a completion) is refused with a sentence
 * that says so, which the panes show as they show any error.
 */
import { UsageError } from '../protocol/errors.js';
import { LIST_KINDS, type ListKindId, type ListItemOf } from '../protocol/list-kinds.js';
import type { JsonObject, ListenFilter, Prompt, Resource, ResourceTemplate, Tool } from '../protocol/types.js';
import type { HostView } from './host-view.js';
import type {
  CallOptions,
  CallOutcome,
  CompletionResult,
  InspectorClient,
  ListenEvent,
  ListenSessionEvent,
  PagedList,
  ServerDescription,
  ToolList,
} from './types.js';

/** Events kept for the first watch (the history of what the host fetched before the watch began). */
const MAX_QUEUED = 1000;

/** The error of everything a viewer cannot do: it would need a request of its own. */
export function viewerRefusal(what: string): UsageError {
  return new UsageError(
    `${what} needs a connection of mcp-inspect's own: attach only watches the host's traffic and sends nothing to the server (open the server itself with mcp-inspect -- CMD or mcp-inspect URL)`,
    'MCPI_VIEWER',
  );
}

/** See the module's comment. `feed` the events of the {@link HostView}'s sink to it (its `event`), and `end` when the stream ends. */
export class ViewerClient implements InspectorClient {
  private queue: ListenSessionEvent[] = [];
  private wake: (() => void) | undefined;
  private ended: string | undefined;
  private consumed = false;

  /**
   * `viewing`: the proxy's name (see InspectorClient.viewing). `onClose`: ends the attach
   * stream (the viewer's close()).
   */
  constructor(
    private readonly view: HostView,
    private readonly onClose: () => void,
    readonly viewing: string,
  ) {}

  get description(): ServerDescription {
    return this.view.description;
  }

  /** Set when the proxy ended (or the stream broke): the viewer is closed for good. */
  get closedReason(): string | undefined {
    return this.ended;
  }

  get closedForGood(): boolean {
    return this.ended !== undefined;
  }

  /** An event of the host's lists (from the HostView's sink). */
  feed(e: ListenSessionEvent): void {
    if (this.ended) return;
    this.queue.push(e);
    if (this.queue.length > MAX_QUEUED) this.queue.splice(0, this.queue.length - MAX_QUEUED);
    this.wake?.();
  }

  /** The stream ended: `reason` for the header. */
  end(reason: string): void {
    if (this.ended) return;
    this.ended = reason;
    this.wake?.();
  }

  /**
   * The host's lists as a listen session's events (what the TUI's watch takes): the first
   * iteration gets every event so far, in order; a later one (the watch began again) starts
   * with the host's current tool list. Ends when the stream ends or `signal` aborts.
   */
  async *hostEvents(signal?: AbortSignal): AsyncIterable<ListenSessionEvent> {
    if (this.consumed) {
      this.queue = [];
      const tools = this.view.lists.tools as Tool[] | undefined;
      if (tools) yield { type: 'tools', time: this.view.description.fetchedAt, tools, dropped: [] };
    }
    this.consumed = true;
    const onAbort = () => this.wake?.();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        while (this.queue.length && !signal?.aborted) yield this.queue.shift()!;
        if (signal?.aborted) return;
        if (this.ended) {
          yield { type: 'end', time: this.view.description.fetchedAt, reason: this.ended };
          return;
        }
        await new Promise<void>((r) => (this.wake = r));
        this.wake = undefined;
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private list<K extends ListKindId>(kind: K): PagedList<ListItemOf[K]> {
    const items = this.view.lists[kind];
    if (!items) throw new UsageError(`the host has not fetched ${LIST_KINDS[kind].method} (yet): attach shows the lists the host fetched`, 'MCPI_VIEWER');
    return { items: items as ListItemOf[K][], pages: 1 };
  }

  async listTools(): Promise<ToolList> {
    const { items, pages } = this.list('tools');
    return { tools: items, dropped: [], pages };
  }
  async listPrompts(): Promise<PagedList<Prompt>> {
    return this.list('prompts');
  }
  async listResources(): Promise<PagedList<Resource>> {
    return this.list('resources');
  }
  async listResourceTemplates(): Promise<PagedList<ResourceTemplate>> {
    return this.list('resourceTemplates');
  }
  async getPrompt(): Promise<never> {
    throw viewerRefusal('getting a prompt');
  }
  async readResource(): Promise<never> {
    throw viewerRefusal('reading a resource');
  }
  async complete(): Promise<CompletionResult> {
    throw viewerRefusal('completing an argument');
  }
  async callTool(_name: string, _args: JsonObject, _opts?: CallOptions): Promise<CallOutcome> {
    throw viewerRefusal('calling a tool');
  }
  // eslint-disable-next-line require-yield
  async *listen(_filter: ListenFilter): AsyncIterable<ListenEvent> {
    throw viewerRefusal('listening');
  }
  async close(): Promise<void> {
    this.end('you closed the viewer');
    this.onClose();
  }
}
