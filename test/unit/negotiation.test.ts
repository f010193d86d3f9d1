import { describe, expect, it } from 'vitest';
import { retryVersion } from '../../src/protocol/negotiation.js';

describe('retryVersion', () => {
  it('retries with the version just sent when the server lists it (a spurious rejection)', () => {
    expect(retryVersion({ supported: ['2026-07-28'], requested: '2026-07-28' })).toBe('2026-07-28');
  });
  it('picks the newest version both sides speak', () => {
    expect(retryVersion({ supported: ['2024-11-05', '2025-06-18', 'x', 3] })).toBe('2025-06-18');
  });
  it('never loops, and gives up when nothing is shared', () => {
    expect(retryVersion({ supported: ['2026-07-28'] }, { alreadyRetried: true })).toBeUndefined();
    expect(retryVersion({ supported: ['1999-01-01'] })).toBeUndefined();
    expect(retryVersion(undefined)).toBeUndefined();
  });
});
