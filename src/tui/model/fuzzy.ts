/**
 * The fuzzy scorer of the `/` filter (rankTools' last tier): fuzzysort, the SublimeText-like
 * matcher (small, pure JS, bundled). Its scores run from 0 (none) to 1 (perfect).
 */
import fuzzysort from 'fuzzysort';
import type { FuzzyScore } from './tools.js';

/** A score when every character of `query` occurs in `target` in order (fuzzysort.single), else undefined. */
export const fuzzyScore: FuzzyScore = (query, target) => {
  if (!target) return undefined;
  const r = fuzzysort.single(query, target);
  return r && r.score > 0 ? r.score : undefined;
};
