import { Text } from 'ink';
import { useTheme, type StyleKey } from '../context/theme.js';
import { sanitizeLine } from '../../util/sanitize.js';

export interface StatusBarProps {
  /** Already sanitized text. */
  text: string;
  style?: StyleKey;
  width: number;
}

/** The bottom line: the last message (saved file path, warnings, confirmations); sanitized again here, as the last gate. */
export function StatusBar({ text, style, width }: StatusBarProps) {
  const theme = useTheme();
  return (
    <Text wrap="truncate-end" {...theme.style(style ?? 'muted')}>
      {text.length ? sanitizeLine(text.slice(0, Math.max(0, width * 4))) : ' '}
    </Text>
  );
}
