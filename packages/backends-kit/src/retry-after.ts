import { readHeader, type HeaderSource } from './headers.js';

/**
 * How long a provider asked us to wait, in milliseconds, or undefined when it did not say (or
 * said something unreadable; a wrong guess would be worse than the normal backoff).
 *
 * Reads, in this order:
 * - `retry-after-ms`: milliseconds, a non-standard header OpenAI and Azure send because
 *   `retry-after` only has whole seconds;
 * - `retry-after`: either delay-seconds (`"2"`, some providers send `"1.5"`) or an HTTP-date
 *   (`"Wed, 21 Oct 2015 07:28:00 GMT"`), measured against `now`. A date in the past means 0.
 */
export function parseRetryAfter(headers: HeaderSource | undefined, now: number = Date.now()): number | undefined {
  const milliseconds = parseNonNegativeNumber(readHeader(headers, 'retry-after-ms'));
  if (milliseconds !== undefined) return Math.ceil(milliseconds);

  const retryAfter = readHeader(headers, 'retry-after')?.trim();
  if (retryAfter === undefined || retryAfter === '') return undefined;

  const seconds = parseNonNegativeNumber(retryAfter);
  if (seconds !== undefined) return Math.ceil(seconds * 1000);

  // Date.parse accepts the IMF-fixdate HTTP uses, but also bare numbers like "-5"; those were
  // already rejected above, and a date must at least name a month or use an ISO form.
  if (!/[a-z]/i.test(retryAfter)) return undefined;
  const date = Date.parse(retryAfter);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

function parseNonNegativeNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}
