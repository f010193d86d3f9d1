/**
 * The findings of one CLI run: what the client (and the command itself) noticed about the
 * server, kept in order for `--json` documents (error documents too) and followed live by
 * streaming commands (`listen` prints them as `{"type":"finding"}` lines).
 */
import { findingKey, type Finding } from '../check/types.js';

/** A finding as reported during the run, with the time it was reported (ms since epoch). */
export interface ReportedFinding {
  finding: Finding;
  time: number;
}

/** The findings of a run, de-duplicated by rule + key (see findingKey). */
export class FindingLog {
  private readonly seen = new Set<string>();
  private readonly entries: ReportedFinding[] = [];
  private readonly followers = new Set<(r: ReportedFinding) => void>();

  /** Records a finding; returns false (and records nothing) when the same rule + key was already seen. */
  add(finding: Finding, time = Date.now()): boolean {
    const k = findingKey(finding);
    if (this.seen.has(k)) return false;
    this.seen.add(k);
    const r = { finding, time };
    this.entries.push(r);
    for (const f of this.followers) f(r);
    return true;
  }

  /** Every finding so far, in the order reported. */
  get list(): Finding[] {
    return this.entries.map((e) => e.finding);
  }

  /** Calls `fn` for every finding so far, then for each new one; returns the unsubscribe function. */
  follow(fn: (r: ReportedFinding) => void): () => void {
    for (const e of this.entries) fn(e);
    this.followers.add(fn);
    return () => this.followers.delete(fn);
  }
}
