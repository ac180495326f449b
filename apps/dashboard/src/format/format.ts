// How the dashboard writes the numbers of the API: one place, so every page says them alike.

/** What a missing number reads as. */
export const MISSING = '—';

/** A score in [0, 1] as a percentage with one decimal: 0.9667 → `96.7%`. */
export function formatScore(score: number | null | undefined): string {
  if (score === null || score === undefined || !Number.isFinite(score)) return MISSING;
  return `${(score * 100).toFixed(1)}%`;
}

/** Dollars with four decimals, and how many calls had no price (while there are any, the sum is a lower bound). */
export function formatCost(usd: number | null | undefined, unpricedCalls = 0): string {
  if (usd === null || usd === undefined || !Number.isFinite(usd)) return MISSING;
  const amount = `$${usd.toFixed(4)}`;
  if (unpricedCalls <= 0) return amount;
  return `${amount} + ${formatCount(unpricedCalls)} unpriced ${unpricedCalls === 1 ? 'call' : 'calls'}`;
}

/** A duration: `850 ms`, `4.2 s`, `42 s`, `1 m 05 s`, `2 h 03 m`. */
export function formatDuration(milliseconds: number | null | undefined): string {
  if (milliseconds === null || milliseconds === undefined || !Number.isFinite(milliseconds) || milliseconds < 0) return MISSING;
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
  if (milliseconds < 10_000) return `${(Math.floor(milliseconds / 100) / 10).toFixed(1)} s`;
  const totalSeconds = Math.floor(milliseconds / 1000);
  if (totalSeconds < 60) return `${totalSeconds} s`;
  const totalMinutes = Math.floor(totalSeconds / 60);
  if (totalMinutes < 60) return `${totalMinutes} m ${twoDigits(totalSeconds % 60)} s`;
  return `${Math.floor(totalMinutes / 60)} h ${twoDigits(totalMinutes % 60)} m`;
}

/** A count with thousands separators: 118151 → `118,151`. */
export function formatCount(count: number | null | undefined): string {
  if (count === null || count === undefined || !Number.isFinite(count)) return MISSING;
  return Math.round(count).toLocaleString('en-US');
}

/** An ISO time in UTC, to the second: `2026-12-05 00:12:16 UTC`. */
export function formatTimestamp(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return MISSING;
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return iso;
  return `${time.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}
