import { createTimeWindow } from '../src/harvest/time-window';
import { toEpochMilliseconds } from '../src/harvest/timestamps';

describe('timestamps as epoch milliseconds', () => {
  it('reads ISO with a zone, without one (as UTC), SQLite text and epoch seconds or milliseconds alike', () => {
    const expected = Date.UTC(2026, 5, 20, 10, 0, 0);
    expect(toEpochMilliseconds('2026-06-20T10:00:00.000Z')).toBe(expected);
    expect(toEpochMilliseconds('2026-06-20T12:00:00+02:00')).toBe(expected);
    expect(toEpochMilliseconds('2026-06-20T10:00:00')).toBe(expected);
    expect(toEpochMilliseconds('2026-06-20 10:00:00')).toBe(expected);
    expect(toEpochMilliseconds(expected / 1000)).toBe(expected);
    expect(toEpochMilliseconds(expected)).toBe(expected);
    expect(toEpochMilliseconds(String(expected))).toBe(expected);
    expect(toEpochMilliseconds('yesterday')).toBeUndefined();
    expect(toEpochMilliseconds(undefined)).toBeUndefined();
  });

  it('reads the canonical UTC form with any fraction, and no impossible date in it', () => {
    const expected = Date.UTC(2026, 5, 20, 10, 0, 0, 123);
    expect(toEpochMilliseconds('2026-06-20T10:00:00.123Z')).toBe(expected);
    expect(toEpochMilliseconds('2026-06-20T10:00:00.123456Z')).toBe(expected);
    expect(toEpochMilliseconds('2026-06-20T10:00:00Z')).toBe(expected - 123);
    expect(toEpochMilliseconds('2026-13-45T10:00:00.000Z')).toBeUndefined();
  });

  it('compares a checkpoint east of UTC as a time, not as text', () => {
    // 09:30 in UTC+02:00 is 07:30Z: a session that ended at 08:00Z is after it, though "08:00Z" < "09:30" as text.
    const checkpoint = toEpochMilliseconds('2026-06-20T09:30:00+02:00') as number;
    const window = createTimeWindow({ checkpoints: new Map([['/p', checkpoint]]), projects: ['/p'] });
    expect(toEpochMilliseconds('2026-06-20T08:00:00Z') as number).toBeGreaterThanOrEqual(window.startFor('/p') as number);
  });
});

describe('the window of a harvest', () => {
  const day = 86_400_000;

  it('starts after each project’s own checkpoint, else at the default lookback', () => {
    const window = createTimeWindow({ checkpoints: new Map([['/a', 10 * day]]), defaultStart: 5 * day, projects: ['/a', '/b'] });
    expect(window.startFor('/a')).toBe(10 * day + 1);
    expect(window.startFor('/b')).toBe(5 * day);
    expect(window.earliestStart).toBe(5 * day);
  });

  it('lets --since or --lookback override every checkpoint', () => {
    const window = createTimeWindow({ explicitStart: 2 * day, checkpoints: new Map([['/a', 10 * day]]), projects: ['/a'] });
    expect(window.startFor('/a')).toBe(2 * day);
  });

  it('has no earliest start when some project reads all history', () => {
    expect(createTimeWindow({ checkpoints: new Map([['/a', day]]), projects: ['/a', '/b'] }).earliestStart).toBeUndefined();
    expect(createTimeWindow({ checkpoints: new Map([['/a', day]]), defaultStart: 3 * day, projects: 'all' }).earliestStart).toBe(day + 1);
  });
});
