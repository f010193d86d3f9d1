import { Box, Text } from 'ink';
import { sanitizeLine } from '../../util/sanitize.js';
import { useTheme } from '../context/theme.js';
import { SHOWN_SUGGESTIONS, type UseArgsForm } from '../hooks/useArgsForm.js';
import { fieldFacts } from './ToolDetail.js';
import { FormView, MIN_FORM_ROWS } from './FormView.js';
import { wrapMessage } from '../lines/text.js';

export { SHOWN_SUGGESTIONS };

export interface ArgsFormViewProps {
  title: string;
  /** Lines under the title (description, the expanded URI…), already sanitized; one starting with `✗ ` is an error, wrapped whole rather than cut. */
  subtitle: string[];
  args: UseArgsForm;
  /** What Enter does (`get the prompt`, `read the resource`). */
  submitLabel: string;
  width: number;
  height: number;
}

/** Most lines an error under the title wraps over. */
const MAX_ERROR_LINES = 4;

/** A prompt-argument or template-variable form: the form rows, the server's suggestions for the focused field, the field's facts and keys. */
export function ArgsFormView({ title, subtitle, args, submitLabel, width, height }: ArgsFormViewProps) {
  const theme = useTheme();
  const { form, suggestions } = args;
  const focused = form.rows[form.state.focus];
  const probs = focused ? (form.problems.byRow.get(focused.pointer) ?? []) : [];
  const shown = suggestions?.values.slice(0, SHOWN_SUGGESTIONS) ?? [];
  const more = suggestions ? (suggestions.total ?? suggestions.values.length) - shown.length : 0;
  const suggRows = shown.length ? shown.length + 1 : 0;
  const sub = subtitle.flatMap((l) =>
    l.startsWith('✗ ') ? wrapMessage(l, width, MAX_ERROR_LINES).map((text) => ({ text, error: true })) : [{ text: l, error: false }],
  );
  const fixed = 2 + sub.length + suggRows + 1;
  // The problem line wraps (issue 19.11); the facts line stays one line.
  const bottom = probs.length
    ? wrapMessage(`✗ ${sanitizeLine(probs.join('; '))}`, width, height - fixed - MIN_FORM_ROWS)
    : [focused ? `${sanitizeLine(focused.node.label)}: ${fieldFacts(focused)}` : ' '];
  const formH = Math.max(1, height - fixed - bottom.length);
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text wrap="truncate-end" {...theme.style('title')}>
        {title}
      </Text>
      {sub.map((l, i) => (
        <Text key={i} wrap="truncate-end" {...theme.style(l.error ? 'error' : 'muted')}>
          {l.text || ' '}
        </Text>
      ))}
      <Text wrap="truncate-end">
        <Text {...theme.style('title')}>Arguments</Text>
        <Text {...theme.style(form.problems.count ? 'error' : 'ok')}>
          {form.problems.count ? `  ✗ ${form.problems.count} problem${form.problems.count === 1 ? '' : 's'}` : '  ✓ valid'}
        </Text>
        <Text {...theme.style('muted')}>{'  * required'}</Text>
      </Text>
      {form.model.noParams ? (
        <Text {...theme.style('muted')}>{`No arguments: Enter to ${submitLabel}.`}</Text>
      ) : (
        <FormView rows={form.rows} focus={form.state.focus} cursor={form.state.cursor} errors={form.problems.byRow} width={width} height={formH} />
      )}
      {shown.length ? (
        <Box flexDirection="column">
          <Text wrap="truncate-end" {...theme.style('muted')}>
            {`Suggestions from the server (↑↓ choose, Tab takes it)${more > 0 || suggestions?.hasMore ? ` · ${more > 0 ? `${more} more` : 'more'}` : ''}`}
          </Text>
          {shown.map((v, i) => (
            <Text key={i} wrap="truncate-end" {...theme.style(i === args.chosen ? 'accent' : 'plain')}>
              {`  ${i === args.chosen ? '›' : ' '} ${sanitizeLine(v)}`}
            </Text>
          ))}
        </Box>
      ) : null}
      {bottom.map((l, i) => (
        <Text key={`p${i}`} wrap="truncate-end" {...theme.style(probs.length ? 'error' : 'muted')}>
          {l || ' '}
        </Text>
      ))}
      <Text wrap="truncate-end" {...theme.style('muted')}>
        {`Enter ${submitLabel} · Esc back`}
      </Text>
    </Box>
  );
}
