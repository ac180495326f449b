import { formatCost, formatCount, formatDuration, formatScore, formatTimestamp, MISSING } from '../src/format/format.js';

describe('formatScore', () => {
  it('writes a score as a percentage with one decimal', () => {
    expect(formatScore(0.9667)).toBe('96.7%');
    expect(formatScore(0.9666666666666667)).toBe('96.7%');
    expect(formatScore(1)).toBe('100.0%');
    expect(formatScore(0)).toBe('0.0%');
  });

  it('writes a missing score as a dash', () => {
    expect(formatScore(null)).toBe('—');
    expect(formatScore(undefined)).toBe(MISSING);
    expect(formatScore(Number.NaN)).toBe(MISSING);
  });
});

describe('formatCost', () => {
  it('writes dollars with four decimals', () => {
    expect(formatCost(0)).toBe('$0.0000');
    expect(formatCost(1.23456)).toBe('$1.2346');
  });

  it('says how many calls had no price', () => {
    expect(formatCost(0.5, 3)).toBe('$0.5000 + 3 unpriced calls');
    expect(formatCost(0.5, 1)).toBe('$0.5000 + 1 unpriced call');
    expect(formatCost(0.5, 0)).toBe('$0.5000');
  });

  it('writes a missing cost as a dash', () => {
    expect(formatCost(null)).toBe(MISSING);
  });
});

describe('formatDuration', () => {
  it('writes under a second in milliseconds', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(0)).toBe('0 ms');
  });

  it('writes seconds, with a decimal under ten', () => {
    expect(formatDuration(1332)).toBe('1.3 s');
    expect(formatDuration(42_900)).toBe('42 s');
  });

  it('writes minutes and two-digit seconds, then hours and two-digit minutes', () => {
    expect(formatDuration(65_000)).toBe('1 m 05 s');
    expect(formatDuration(59 * 60_000 + 59_000)).toBe('59 m 59 s');
    expect(formatDuration(2 * 3_600_000 + 3 * 60_000)).toBe('2 h 03 m');
  });

  it('writes a missing duration as a dash', () => {
    expect(formatDuration(null)).toBe(MISSING);
    expect(formatDuration(-1)).toBe(MISSING);
  });
});

describe('formatCount and formatTimestamp', () => {
  it('groups thousands', () => {
    expect(formatCount(118_151)).toBe('118,151');
    expect(formatCount(null)).toBe(MISSING);
  });

  it('writes a time in UTC to the second', () => {
    expect(formatTimestamp('2026-12-05T00:12:16.855Z')).toBe('2026-12-05 00:12:16 UTC');
    expect(formatTimestamp(null)).toBe(MISSING);
  });
});
