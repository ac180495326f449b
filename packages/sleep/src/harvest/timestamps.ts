/**
 * Times as the sources write them — ISO with or without a zone, SQLite's `YYYY-MM-DD HH:MM:SS`,
 * epoch seconds or milliseconds — turned into UTC epoch milliseconds, the one form windows and
 * checkpoints compare. The original compared local times without an offset as strings against UTC
 * `…Z` times, so east of UTC sessions were skipped forever (upstream-sleep §9 item 1).
 */

// The form nearly every source writes, `2026-11-29T06:43:30.042Z`: parsed as it is, without the normalising below.
const CANONICAL_UTC_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;

/** Epoch milliseconds, or undefined when `value` is not a time. A time without a zone is UTC. */
export function toEpochMilliseconds(value: unknown): number | undefined {
  if (typeof value === 'string' && CANONICAL_UTC_TIME.test(value)) {
    const parsed = Date.parse(value);
    if (!Number.isNaN(parsed)) return parsed;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return undefined;
    // Seconds until the year 33658; anything larger is milliseconds.
    return value < 1e12 ? Math.round(value * 1000) : Math.round(value);
  }
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return toEpochMilliseconds(Number(text));
  const withT = text.replace(/^(\d{4}-\d{2}-\d{2}) (\d)/, '$1T$2');
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(withT);
  const isDateTime = /^\d{4}-\d{2}-\d{2}T/.test(withT);
  const parsed = Date.parse(isDateTime && !hasZone ? `${withT}Z` : withT);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/** ISO 8601 in UTC of epoch milliseconds. */
export function isoTime(epochMilliseconds: number): string {
  return new Date(epochMilliseconds).toISOString();
}
