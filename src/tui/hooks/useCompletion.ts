import { useEffect, useRef, useState } from 'react';
import type { CompletionRef, InspectorClient } from '../../client/types.js';
import { realSchedule, useServices } from '../context/services.js';

/** How long typing must pause before `completion/complete` is asked (ms). */
export const COMPLETION_DEBOUNCE_MS = 250;

export interface Suggestions {
  /** For which field and value they were asked. */
  field: string;
  value: string;
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/**
 * The server's suggestions for the focused field (a prompt argument or a template variable),
 * asked through `completion/complete` once typing pauses for {@link COMPLETION_DEBOUNCE_MS}
 * (the services' `schedule`, so tests fire it by hand). Only when the server declares the
 * `completions` capability and the client can complete. Answers for an older value are
 * dropped; a failure just shows no suggestions. spec: server/utilities/completion
 */
export function useCompletion(
  client: InspectorClient,
  ref: CompletionRef | undefined,
  field: string | undefined,
  value: string,
  context: Record<string, string>,
): Suggestions | undefined {
  const services = useServices();
  const [sugg, setSugg] = useState<Suggestions | undefined>(undefined);
  const enabled = !!client.complete && client.description.capabilities.completions !== undefined && !!ref && field !== undefined;
  const ctxRef = useRef(context);
  ctxRef.current = context;
  const refKey = ref ? `${ref.type}:${ref.type === 'ref/prompt' ? ref.name : ref.uri}` : '';
  const refRef = useRef(ref);
  refRef.current = ref;
  useEffect(() => {
    if (!enabled || field === undefined) return;
    const ac = new AbortController();
    const cancel = (services.schedule ?? realSchedule)(() => {
      const r = refRef.current;
      if (!r || !client.complete) return;
      const others = Object.fromEntries(Object.entries(ctxRef.current).filter(([k]) => k !== field));
      client.complete(r, { name: field, value }, Object.keys(others).length ? { arguments: others } : undefined, { signal: ac.signal }).then(
        (res) => {
          if (!ac.signal.aborted) setSugg({ field, value, values: res.values, total: res.total, hasMore: res.hasMore });
        },
        () => {
          if (!ac.signal.aborted) setSugg(undefined);
        },
      );
    }, COMPLETION_DEBOUNCE_MS);
    return () => {
      cancel();
      ac.abort();
    };
  }, [enabled, client, refKey, field, value, services]);
  return enabled && sugg && sugg.field === field && sugg.value === value ? sugg : undefined;
}
