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
import { useMemo, useRef, useState } from 'react';
import { Box, Text } from 'ink';
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
import { base64Size, formatBytes } from '../lines/text.js';
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

function useResourcesPane({ client, watch, width, height, now, flash }: PaneContext): PaneInstance {
  const services = useServices();
  const theme = useTheme();
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
  const lines = useMemo(() => (read.phase === 'done' ? readLines(read.result, width) : []), [read, width]);
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
    setView('read');
    setOffset(0);
    const hit = cache.current.get(uri);
    if (!force && hit && isFresh(hit.fetchedAt, hit.result.ttlMs, services.now()) && hit.result.ttlMs !== undefined) {
      return setRead({ phase: 'done', uri, result: hit.result, fetchedAt: hit.fetchedAt, cached: true });
    }
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
            wrap="truncate-end"
            {...theme.style('error')}
          >{`${read.notFound ? '✗ Resource not found: ' : '✗ resources/read '}${uri} — ${sanitizeLine(read.error)}`}</Text>
        ) : read.phase === 'done' ? (
          <Text wrap="truncate-end">
            <Text {...theme.style('ok')}>{`✓ ${uri}`}</Text>
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
            name: sanitizeLine(r.title ?? r.name ?? r.uri),
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

  return {
    contexts,
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
