/**
 * The Resources pane: the server's resources and resource templates (every page; served from
 * memory while fresh, `r` refetches, a resources/list_changed refetches at once), the read
 * view (text shown; blobs as MIME type and size; `s` saves the decoded bytes to a file;
 * served from cache while the read's ttlMs says fresh, `r` reads again), a template's
 * variable form (the tool form engine over templateArgumentsSchema, expanded with RFC 6570,
 * with the server's completions), and "resource not found" said plainly (-32602 modern,
 * -32002 legacy). A resource_link in a tool result opens here (PaneInstance.onOpen).
 * spec: server/resources, server/utilities/completion, server/utilities/caching
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { METHOD } from '../../protocol/constants.js';
import { contentDiffLines, diffContents } from '../../diff/content-diff.js';
import { formatClock } from '../lines/text.js';
import { Box, Text } from 'ink';
import type { InspectorClient } from '../../client/types.js';
import type { ReadResourceResult } from '../../protocol/resource.js';
import type { Resource, ResourceTemplate } from '../../protocol/types.js';
import { decodeBlob, isResourceNotFound } from '../../protocol/resource.js';
import { expandUriTemplate, parseUriTemplate, templateArgumentsSchema, type TemplateValue } from '../../protocol/uri-template.js';
import { McpError } from '../../protocol/errors.js';
import { LIST_KINDS } from '../../protocol/list-kinds.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { useServices } from '../context/services.js';
import { useTheme } from '../context/theme.js';
import { matchKey, type KeyContext } from '../keys.js';
import { clampOffset, moveBy, scrollBy } from '../lines/scroll.js';
import { jsonLines, line, textLines, type Line } from '../lines/lines.js';
import { parseJsonText } from '../lines/resultLines.js';
import { base64Size, formatBytes, truncate } from '../lines/text.js';
import { describeError } from '../model/errors.js';
import { useServerList, cacheLine, isFresh } from '../hooks/useServerList.js';
import { useArgsForm } from '../hooks/useArgsForm.js';
import { ArgsFormView } from '../components/ArgsFormView.js';
import { ItemList } from '../components/ItemList.js';
import { LinesView } from '../components/LinesView.js';
import type { PaneContext, PaneDef, PaneInstance } from './types.js';
import { append } from '../../util/array.js';

const NO_TEMPLATE: ResourceTemplate = { uriTemplate: '', name: '' };

type ReadState =
  | { phase: 'idle' }
  | { phase: 'running'; uri: string }
  | { phase: 'done'; uri: string; result: ReadResourceResult; fetchedAt: number; cached: boolean }
  | { phase: 'failed'; uri: string; error: string; notFound: boolean };

interface CacheEntry {
  result: ReadResourceResult;
  fetchedAt: number;
}

/** The lines of a `resources/read` result: each content's URI and MIME type, then its text (JSON pretty-printed) or, for a blob, its decoded size. */
export function readLines(result: ReadResourceResult, width: number): Line[] {
  const out: Line[] = [];
  const contents = Array.isArray(result.contents) ? result.contents : [];
  if (contents.length === 0) out.push(line('(no contents)', 'muted'));
  contents.forEach((c, i) => {
    out.push([
      { text: `[${i}] `, style: 'muted' },
      { text: sanitizeLine(String(c.uri ?? '(no uri)')), style: 'accent' },
      { text: `  ${sanitizeLine(typeof c.mimeType === 'string' ? c.mimeType : '(no mimeType)')}`, style: 'muted' },
    ]);
    if (typeof c.text === 'string') {
      const json = parseJsonText(c.text);
      append(out, json !== undefined ? jsonLines(json, width, 4) : textLines(c.text, width, 4));
    } else if (typeof c.blob === 'string') out.push(line(`    blob ${formatBytes(base64Size(c.blob))} — s saves the decoded bytes`, 'muted'));
    else out.push(line('    neither text nor blob', 'warn'));
  });
  return out;
}

/** The file name a saved content gets: the last path segment of its URI, else `resource`. */
export function saveName(uri: string): string {
  const seg =
    uri
      .replace(/[?#].*$/, '')
      .split('/')
      .filter(Boolean)
      .pop() ?? '';
  return seg.replace(/^[a-z][a-z0-9+.-]*:$/i, '') || 'resource';
}

/** What an update of a subscribed resource changed: its re-read against the contents before. */
interface Update {
  /** Updates seen (notifications/resources/updated for the URI). */
  count: number;
  /** When the last one arrived (ms since epoch). */
  at: number;
  /** The content diff of the last re-read against the one before (display lines). */
  diff?: Line[];
}

/** The content diff of an update as lines: `+` added, `-` removed, context, gaps and headers muted. */
function updateDiffLines(before: ReadResourceResult, after: ReadResourceResult): Line[] {
  return contentDiffLines(diffContents(before.contents ?? [], after.contents ?? [])).map((l) =>
    l.kind === 'add'
      ? line(`  + ${sanitizeLine(l.text)}`, 'added')
      : l.kind === 'remove'
        ? line(`  - ${sanitizeLine(l.text)}`, 'removed')
        : line(`${l.kind === 'same' ? '    ' : '  '}${sanitizeLine(l.text)}`, 'muted'),
  );
}

function useResourcesPane({ client, watch, width, height, now, flash, disconnected }: PaneContext): PaneInstance {
  const services = useServices();
  const theme = useTheme();
  const modern = client.description.era === 'modern';
  // Resource subscriptions (U on a read resource): modern ones ride in the watch's listen filter,
  // legacy ones are resources/subscribe calls. spec: basic/subscriptions, 2025-11-25 server/resources#subscriptions
  const [subs, setSubs] = useState<ReadonlySet<string>>(() => new Set(watch.state.listen.requested.resourceSubscriptions ?? []));
  const [updates, setUpdates] = useState<Record<string, Update>>({});
  const offered = client.description.capabilities.resources !== undefined;
  const resources = useServerList((signal) => client.listResources({ signal }), { enabled: offered, watch: watch.state, kind: 'resources' });
  const templates = useServerList((signal) => client.listResourceTemplates({ signal }), { enabled: offered, watch: watch.state, kind: 'resources' });
  const [which, setWhich] = useState<'resources' | 'templates'>('resources');
  const [pos, setPos] = useState({ resources: 0, templates: 0 });
  const [view, setView] = useState<'list' | 'form' | 'read'>('list');
  const [back, setBack] = useState<'list' | 'form'>('list');
  const [openTpl, setOpenTpl] = useState<string | undefined>(undefined);
  const tpl = (openTpl !== undefined ? templates.state.items?.find((t) => t.uriTemplate === openTpl) : undefined) ?? NO_TEMPLATE;
  const info = useMemo(() => parseUriTemplate(tpl.uriTemplate), [tpl.uriTemplate]);
  const schema = useMemo(() => templateArgumentsSchema(info), [info]);
  const args = useArgsForm(
    client,
    `template:${tpl.uriTemplate}`,
    schema,
    tpl.uriTemplate ? { type: 'ref/resource', uri: tpl.uriTemplate } : undefined,
    view === 'form',
  );
  const [read, setRead] = useState<ReadState>({ phase: 'idle' });
  const cache = useRef(new Map<string, CacheEntry>());
  const [offset, setOffset] = useState(0);
  const openUpdate = read.phase === 'idle' ? undefined : updates[read.uri];
  const lines = useMemo(() => {
    if (read.phase !== 'done') return [];
    const body = readLines(read.result, width);
    const u = updates[read.uri];
    if (!u?.diff) return body;
    return [line(`Δ update ${u.count} at ${formatClock(u.at)}: what changed`, 'changed'), ...u.diff, line(''), ...body];
  }, [read, width, updates]);
  const listH = Math.max(1, height - 2);
  const readH = Math.max(1, height - 2);

  const items: (Resource | ResourceTemplate)[] = (which === 'resources' ? resources.state.items : templates.state.items) ?? [];
  const n = items.length;
  const p = Math.min(pos[which], Math.max(0, n - 1));

  const expanded = (): { uri?: string; error?: string } => {
    const values: Record<string, TemplateValue> = {};
    for (const [k, v] of Object.entries(args.form.args)) {
      if (typeof v === 'string' && v !== '') values[k] = v;
      else if (Array.isArray(v)) values[k] = v.filter((x): x is string => typeof x === 'string');
    }
    try {
      return { uri: expandUriTemplate(tpl.uriTemplate, values) };
    } catch (e) {
      return { error: (e as Error).message };
    }
  };

  /** Reads `uri`: from the cache while fresh (unless `force`), else from the server (input rounds go to the overlay). */
  const doRead = (uri: string, force: boolean) => {
    const hit = cache.current.get(uri);
    const fresh = !force && hit && isFresh(hit.fetchedAt, hit.result.ttlMs, services.now()) && hit.result.ttlMs !== undefined;
    // Closed (X): nothing is sent, as for a tool call (issue 19.14); a fresh cached copy still shows.
    if (disconnected && !fresh) return flash(`Not read: ${disconnected} — R connects again`, 'warn');
    setView('read');
    setOffset(0);
    if (fresh) return setRead({ phase: 'done', uri, result: hit.result, fetchedAt: hit.fetchedAt, cached: true });
    if (!client.readResource)
      return setRead({ phase: 'failed', uri, error: 'this client cannot read resources yet (resources/read is not implemented)', notFound: false });
    setRead({ phase: 'running', uri });
    client.readResource(uri).then(
      (result) => {
        const fetchedAt = services.now();
        cache.current.set(uri, { result, fetchedAt });
        setRead({ phase: 'done', uri, result, fetchedAt, cached: false });
      },
      (e: unknown) => setRead({ phase: 'failed', uri, error: describeError(e), notFound: e instanceof McpError && isResourceNotFound(e.code) }),
    );
  };

  // Legacy subscriptions live in the server's session: a new client (R, a restart) or a renewed
  // session has forgotten them, so they are sent again (modern ones ride in the listen filter,
  // which the watch sends again by itself). spec: 2025-11-25 server/resources#subscriptions
  const renew = (c: InspectorClient, why: string) => {
    const uris = [...subsRef.current];
    if (c.description.era !== 'legacy' || !c.subscribeResource || uris.length === 0) return;
    const sub = c.subscribeResource.bind(c);
    Promise.all(uris.map((u) => sub(u, true))).then(
      () =>
        flash(`Subscribed again to ${uris.length === 1 ? sanitizeLine(uris[0]) : `${uris.length} resources`} after ${why} (resources/subscribe)`, 'ok', {
          ttlMs: 4000,
        }),
      (e: unknown) => flash(`resources/subscribe failed after ${why}: ${describeError(e, 'inline')}`, 'error'),
    );
  };
  const subsRef = useRef(subs);
  subsRef.current = subs;
  const renewRef = useRef(renew);
  renewRef.current = renew;
  const lastClient = useRef(client);
  useEffect(() => {
    if (lastClient.current === client) return;
    lastClient.current = client;
    renewRef.current(client, 'the reconnect');
  }, [client]);

  // notifications/resources/updated for a subscribed URI: re-read it, diff against the contents before.
  const seenSeq = useRef(watch.state.received);
  const readRef = useRef(read);
  readRef.current = read;
  useEffect(() => {
    const fresh = watch.state.tail.filter((t) => t.seq > seenSeq.current);
    seenSeq.current = watch.state.received;
    for (const { event: ev } of fresh) {
      if (ev.type === 'session') renewRef.current(client, 'the session was renewed');
      if (ev.type !== 'notification' || ev.method !== METHOD.resourceUpdated) continue;
      const uri = typeof ev.params?.uri === 'string' ? ev.params.uri : undefined;
      if (!uri || !subs.has(uri) || !client.readResource) continue;
      const before = cache.current.get(uri)?.result;
      setUpdates((u) => ({ ...u, [uri]: { ...u[uri], count: (u[uri]?.count ?? 0) + 1, at: ev.time } }));
      client.readResource(uri).then(
        (result) => {
          const fetchedAt = services.now();
          cache.current.set(uri, { result, fetchedAt });
          setUpdates((u) => ({ ...u, [uri]: { ...u[uri], diff: before ? updateDiffLines(before, result) : undefined } }));
          const r = readRef.current;
          if (r.phase !== 'idle' && r.uri === uri) setRead({ phase: 'done', uri, result, fetchedAt, cached: false });
        },
        (e: unknown) => flash(`could not re-read ${sanitizeLine(uri)} after its update: ${describeError(e, 'inline')}`, 'error'),
      );
    }
  }, [watch.state.tail, watch.state.received, subs, client, services, flash]);

  /** U: subscribe to `uri`, or unsubscribe. */
  const toggleSubscription = (uri: string) => {
    if (disconnected) return flash(`Not sent: ${disconnected} — R connects again`, 'warn');
    const on = !subs.has(uri);
    const next = new Set(subs);
    if (on) next.add(uri);
    else next.delete(uri);
    const done = () => {
      setSubs(next);
      flash(on ? `Subscribed to ${sanitizeLine(uri)}: each update re-reads it` : `Unsubscribed from ${sanitizeLine(uri)}`, 'ok', { ttlMs: 4000 });
    };
    if (modern) {
      const { resourceSubscriptions: _was, ...rest } = watch.state.listen.requested;
      watch.resubscribe(next.size ? { ...rest, resourceSubscriptions: [...next] } : rest);
      return done();
    }
    if (!client.subscribeResource) return flash('This client cannot subscribe to resources', 'warn');
    client
      .subscribeResource(uri, on)
      .then(done, (e: unknown) => flash(`${on ? 'resources/subscribe' : 'resources/unsubscribe'} failed: ${describeError(e, 'inline')}`, 'error'));
  };
  // What the server granted (modern: the acknowledged subset; a refused URI is said).
  const granted = watch.state.listen.granted?.resourceSubscriptions;
  const refusedUris = watch.state.listen.refused?.resourceSubscriptions;
  const subState = (uri: string): string | undefined =>
    !subs.has(uri)
      ? undefined
      : modern && refusedUris?.includes(uri)
        ? 'refused by the server'
        : modern && !granted?.includes(uri)
          ? 'subscribing…'
          : 'subscribed';

  const save = () => {
    if (read.phase !== 'done') return;
    const save = services.saveFile;
    if (!save) return flash('Cannot save files here', 'warn');
    const contents = read.result.contents ?? [];
    if (contents.length === 0) return flash('Nothing to save: the resource has no contents', 'warn');
    for (const c of contents) {
      const data = typeof c.blob === 'string' ? decodeBlob(c.blob) : (c.text ?? '');
      save(saveName(String(c.uri ?? read.uri)), data).then(
        (path) => flash(`Saved ${typeof c.blob === 'string' ? `${data.length} decoded bytes` : 'the text'} to ${path}`, 'ok'),
        (e: unknown) => flash(`Could not save: ${describeError(e)}`, 'error'),
      );
    }
  };

  const listCtx: readonly KeyContext[] = [which === 'resources' ? 'resources-list' : 'templates-list', 'list'];
  const READ: readonly KeyContext[] = ['resource-read', 'view'];
  const contexts: readonly KeyContext[] = view === 'list' ? listCtx : view === 'form' ? args.contexts : READ;

  const onKey: PaneInstance['onKey'] = (input, key) => {
    if (view === 'list') {
      resources.ensureFresh();
      templates.ensureFresh();
      const m = matchKey(input, key, listCtx);
      if (m?.command === 'list.refresh') return void (which === 'resources' ? resources.refresh() : templates.refresh());
      if (m?.command === 'resources.templates') return setWhich((w) => (w === 'resources' ? 'templates' : 'resources'));
      if (m?.command === 'item.open' && items[p]) {
        if (which === 'resources') {
          setBack('list');
          return doRead((items[p] as Resource).uri, false);
        }
        setOpenTpl((items[p] as ResourceTemplate).uriTemplate);
        return setView('form');
      }
      const q = moveBy(m, p, n, listH);
      if (q !== undefined) setPos((s) => ({ ...s, [which]: q }));
      return;
    }
    if (view === 'form') {
      const a = args.onKey(input, key);
      if (a === 'back') setView('list');
      else if (a === 'confirm') flash(args.confirmText('read it'), 'warn');
      else if (a === 'submit') {
        const e = expanded();
        if (e.uri === undefined) return flash(`Cannot expand the template: ${e.error ?? ''}`, 'error');
        setBack('form');
        doRead(e.uri, false);
      }
      return;
    }
    const m = matchKey(input, key, READ);
    if (m?.command === 'item.back') return setView(back);
    if (m?.command === 'item.reload' && read.phase !== 'idle' && read.phase !== 'running') return doRead(read.uri, true);
    if (m?.command === 'resource.save') return save();
    if (m?.command === 'resource.subscribe' && read.phase !== 'idle') {
      const res = client.description.capabilities.resources as { subscribe?: unknown } | undefined;
      if (!res?.subscribe && !subs.has(read.uri))
        return flash('The server does not declare resources.subscribe: it sends no updates for a resource', 'warn', { ttlMs: 4000 });
      return toggleSubscription(read.uri);
    }
    const o = scrollBy(m, offset, lines.length, readH);
    if (o !== undefined) setOffset(o);
  };

  const draw = () => {
    if (!offered && view === 'list') return <Text {...theme.style('muted')}>The server does not offer resources (no resources capability).</Text>;
    if (view === 'form' && tpl.uriTemplate) {
      const e = expanded();
      const sub = [
        sanitizeLine(tpl.uriTemplate),
        e.uri !== undefined ? `→ ${sanitizeLine(e.uri)}` : `✗ ${sanitizeLine(e.error ?? '')}`,
        ...(info.error ? [`✗ ${sanitizeLine(info.error)}`] : []),
      ];
      return (
        <ArgsFormView
          title={`Template ${sanitizeLine(tpl.title ?? tpl.name ?? tpl.uriTemplate)}`}
          subtitle={sub}
          args={args}
          submitLabel="read the expanded URI"
          width={width}
          height={height}
        />
      );
    }
    if (view === 'read') {
      const uri = read.phase === 'idle' ? '' : sanitizeLine(read.uri);
      const head =
        read.phase === 'running' ? (
          <Text {...theme.style('muted')}>{`resources/read ${uri} …`}</Text>
        ) : read.phase === 'failed' ? (
          <Text
            wrap="wrap"
            {...theme.style('error')}
          >{`${read.notFound ? '✗ Resource not found: ' : '✗ resources/read '}${uri} — ${sanitizeLine(read.error)}`}</Text>
        ) : read.phase === 'done' ? (
          <Text wrap="truncate-end">
            <Text {...theme.style('ok')}>{`✓ ${uri}`}</Text>
            {subState(read.uri) ? (
              <Text
                {...theme.style('changed')}
              >{`  ● ${subState(read.uri)}${openUpdate ? ` · ${openUpdate.count} update${openUpdate.count === 1 ? '' : 's'}` : ''}`}</Text>
            ) : null}
            <Text {...theme.style('muted')}>
              {`  ${read.cached ? 'from cache · ' : ''}${cacheLine({ fetchedAt: read.fetchedAt, ttlMs: read.result.ttlMs, cacheScope: read.result.cacheScope }, now)}`}
            </Text>
          </Text>
        ) : (
          <Text> </Text>
        );
      return (
        <Box flexDirection="column" width={width} height={height}>
          {head}
          <LinesView lines={lines} offset={clampOffset(offset, lines.length, readH)} height={readH} width={width} />
        </Box>
      );
    }
    const st = which === 'resources' ? resources.state : templates.state;
    const rows =
      which === 'resources'
        ? (resources.state.items ?? []).map((r) => ({
            key: r.uri,
            name: `${subs.has(r.uri) ? '● ' : ''}${sanitizeLine(r.title ?? r.name ?? r.uri)}`,
            detail: `${sanitizeLine(r.uri)}${r.mimeType ? `  ${sanitizeLine(r.mimeType)}` : ''}${typeof r.size === 'number' ? `  ${formatBytes(r.size)}` : ''}`,
          }))
        : (templates.state.items ?? []).map((t) => ({
            key: t.uriTemplate,
            name: sanitizeLine(t.title ?? t.name ?? t.uriTemplate),
            detail: `${sanitizeLine(t.uriTemplate)}${t.mimeType ? `  ${sanitizeLine(t.mimeType)}` : ''}`,
          }));
    return (
      <Box flexDirection="column" width={width} height={height}>
        <Text wrap="truncate-end">
          <Text {...theme.style('title')}>{`${which === 'resources' ? 'Resources' : 'Templates'}${st.items ? ` (${st.items.length})` : ''}`}</Text>
          <Text {...theme.style('muted')}>{`  ${st.loading ? 'fetching… ' : ''}${cacheLine(st, now)}`}</Text>
        </Text>
        {st.error ? (
          <Text
            {...theme.style('error')}
          >{`✗ ${LIST_KINDS[which === 'resources' ? 'resources' : 'resourceTemplates'].method}: ${sanitizeLine(st.error)}`}</Text>
        ) : null}
        <ItemList rows={rows} pos={p} width={width} height={listH} empty={st.items ? `No ${which}.` : `Listing ${which}…`} />
      </Box>
    );
  };

  // The header says it from every pane: one resource by name, several counted.
  const subscribed = [...subs];
  const updateCount = subscribed.reduce((n, u) => n + (updates[u]?.count ?? 0), 0);
  const upd = updateCount ? ` · ${updateCount} update${updateCount === 1 ? '' : 's'}` : '';
  const subscription =
    subscribed.length === 0
      ? undefined
      : subscribed.length === 1
        ? `◉ ${truncate(sanitizeLine(subscribed[0]), 32)}${subState(subscribed[0]) === 'subscribed' ? '' : ` ${subState(subscribed[0])}`}${upd}`
        : `◉ ${subscribed.length} subscriptions${upd}`;

  return {
    contexts,
    subscription,
    // The tab says what the pane lists: resources and templates apart (`7+2`), not their sum.
    badge: resources.state.items
      ? `${resources.state.items.length}${templates.state.items?.length ? `+${templates.state.items.length}` : ''}`
      : offered
        ? '…'
        : undefined,
    onKey,
    view: draw,
    onOpen: (uri) => {
      setBack('list');
      doRead(uri, false);
    },
  };
}

/** The Resources pane: resources, templates, reads; resource_links open here. */
export const resourcesPane: PaneDef = { id: 'resources', title: 'Resources', usePane: useResourcesPane };
