/**
 * Issue 19.1's open question: on a 10 MB result the first key after the first frame waited
 * ~0.6 s. usePictures handed a new empty map once its effect ran, which changed the result
 * layout's inputs and laid the whole result out a second time right after the first frame.
 * A result without images must keep one map.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Text } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import { usePictures } from '../../src/tui/hooks/usePictures.js';
import { waitFor } from './helpers.js';

afterEach(() => cleanup());

describe('usePictures', () => {
  it('a result without images keeps the same (empty) map across its effect: no second layout', async () => {
    const seen: ReadonlyMap<number, unknown>[] = [];
    const content = [{ type: 'text', text: 'rows…' }];
    function Probe() {
      const m = usePictures(content);
      seen.push(m);
      return <Text>{`renders ${seen.length}`}</Text>;
    }
    const r = render(<Probe />);
    // The effect sets its state once: a second render.
    await waitFor(r, (f) => f.includes('renders 2'));
    expect(new Set(seen).size).toBe(1);
  });

  it('a result with an image gets its decoding state', async () => {
    let last: ReadonlyMap<number, { ok: unknown }> | undefined;
    const content = [{ type: 'image', mimeType: 'image/gif', data: 'R0lGOD' }];
    function Probe() {
      last = usePictures(content);
      return <Text>{`pictures ${last.size}`}</Text>;
    }
    const r = render(<Probe />);
    await waitFor(r, (f) => f.includes('pictures 1'));
    expect(last?.get(0)?.ok).toBe(false);
  });
});
