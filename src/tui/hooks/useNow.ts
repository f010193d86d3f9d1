import { useEffect, useState } from 'react';
import { useServices } from '../context/services.js';

/**
 * The current time (ms since epoch), re-read every `intervalMs` while `active`. Used for
 * ages and countdowns (header "last event 3s ago", cache time-to-stale, call elapsed time).
 */
export function useNow(intervalMs = 1000, active = true): number {
  const { now } = useServices();
  const [t, setT] = useState(now);
  useEffect(() => {
    if (!active) return;
    setT(now());
    const id = setInterval(() => setT(now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs, active, now]);
  return t;
}
