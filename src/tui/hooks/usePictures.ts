/**
 * Decodes the image blocks of a result for the result view, off the render path: the decoder
 * (src/tui/images/decode.ts, with jpeg-js) is loaded with a dynamic import the first time a
 * result has a PNG or JPEG image, so start-up never pays for it. Other formats get their note
 * without loading anything.
 */
import { useEffect, useState } from 'react';
import { mimeFormat, type PictureState } from '../images/picture.js';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The picture state of a result without images: one map, so that it never changes the layout's inputs. */
const EMPTY: ReadonlyMap<number, PictureState> = new Map();

/**
 * The picture state of each image block of `content` (by content index): `decoding` until
 * the decoder answers, then pixels or a one-line note. A new `content` starts over.
 */
export function usePictures(content: readonly unknown[] | undefined): ReadonlyMap<number, PictureState> {
  const [state, setState] = useState<{ content: readonly unknown[] | undefined; map: ReadonlyMap<number, PictureState> }>({
    content: undefined,
    map: EMPTY,
  });
  useEffect(() => {
    let live = true;
    const map = new Map<number, PictureState>();
    const todo: Array<{ i: number; mime: string; data: string }> = [];
    (content ?? []).forEach((b, i) => {
      if (!isObj(b) || b.type !== 'image') return;
      const mime = typeof b.mimeType === 'string' ? b.mimeType : '';
      const data = typeof b.data === 'string' ? b.data : '';
      const fmt = mimeFormat(mime);
      if (!data) map.set(i, { ok: false, note: 'no image data' });
      else if (fmt === 'png' || fmt === 'jpeg') {
        map.set(i, { ok: 'decoding' });
        todo.push({ i, mime, data });
      } else map.set(i, { ok: false, note: `not rendered (${fmt || 'no mimeType'})` });
    });
    // No picture: the one empty map, so a result without images is not laid out a second time
    // right after its first frame (a new empty map changed the layout's inputs: on a 10 MB result
    // the first key after the frame waited ~0.6 s for that second layout).
    setState({ content, map: map.size ? map : EMPTY });
    if (todo.length === 0) return;
    void import('../images/decode.js').then(async ({ decodeImage }) => {
      for (const t of todo) {
        const r = await decodeImage(t.mime, t.data);
        if (!live) return;
        setState((s) => (s.content === content ? { content, map: new Map(s.map).set(t.i, r) } : s));
      }
    });
    return () => {
      live = false;
    };
  }, [content]);
  return state.content === content ? state.map : EMPTY;
}
