import { useEffect, useState } from 'react';
import { Text } from 'ink';
import { useTheme } from '../context/theme.js';
import { useServices } from '../context/services.js';
import { formatDuration } from '../../util/format.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface SpinnerProps {
  /** ms since epoch when the work started: the spinner shows the elapsed time. */
  startedAt: number;
  label: string;
}

/** A spinner with elapsed time (ticks every 100 ms; only this component re-renders). */
export function Spinner({ startedAt, label }: SpinnerProps) {
  const theme = useTheme();
  const { now } = useServices();
  const [t, setT] = useState(now);
  useEffect(() => {
    const id = setInterval(() => setT(now()), 100);
    return () => clearInterval(id);
  }, [now]);
  const frame = FRAMES[Math.floor(t / 100) % FRAMES.length];
  return (
    <Text>
      <Text {...theme.style('accent')}>{frame}</Text>
      <Text>{` ${label} `}</Text>
      <Text {...theme.style('muted')}>{formatDuration(Math.max(0, t - startedAt))}</Text>
    </Text>
  );
}
