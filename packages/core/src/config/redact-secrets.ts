import { isSecretKey, SECRET_VALUE_PATTERNS } from './secret-patterns.js';

/** What a secret is replaced with in every artifact. */
export const REDACTED = '[redacted]';

/**
 * A copy of `value` that is safe to write to an artifact (config.json, events, error details):
 * the value of every key that names a secret (`api_key`, `apiKey`, `token`, `authorization`,
 * `password`, …) becomes "[redacted]", and inside every other string anything shaped like a key
 * (`sk-…`, `Bearer …`, GitHub and AWS tokens, JWTs) is replaced. Empty values stay empty so a
 * reader can tell "not set" from "set and hidden". Cycles are cut rather than followed.
 */
export function redactSecrets<T>(value: T): T {
  return redact(value, new WeakSet()) as T;
}

/** `redactSecrets` for one string. */
export function redactSecretText(text: string): string {
  let result = text;
  for (const { pattern, replacement } of SECRET_VALUE_PATTERNS) result = result.replace(pattern, replacement);
  return result;
}

function redact(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return redactSecretText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redact(item, seen));
  if (value instanceof Date) return value;
  if (value instanceof Map) return new Map([...value].map(([key, item]) => [key, redactEntry(String(key), item, seen)]));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = redactEntry(key, item, seen);
  return copy;
}

function redactEntry(key: string, item: unknown, seen: WeakSet<object>): unknown {
  if (isSecretKey(key) && !isUnset(item)) return REDACTED;
  return redact(item, seen);
}

function isUnset(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}
