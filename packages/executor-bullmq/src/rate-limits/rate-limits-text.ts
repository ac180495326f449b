import type { RateLimits } from '@skillopt/backends-kit';

/** The limits as Redis keeps them: one canonical text, so two processes' limits compare as strings. */
export function limitsText(limits: RateLimits): string {
  return JSON.stringify({
    maxConcurrency: limits.maxConcurrency ?? null,
    requestsPerMinute: limits.requestsPerMinute ?? null,
    tokensPerMinute: limits.tokensPerMinute ?? null,
  });
}

/** The limits another process set, read back from Redis. */
export function parseLimitsText(text: string): RateLimits {
  const parsed = JSON.parse(text) as Record<keyof RateLimits, number | null>;
  const limits: RateLimits = {};
  if (parsed.maxConcurrency !== null) limits.maxConcurrency = parsed.maxConcurrency;
  if (parsed.requestsPerMinute !== null) limits.requestsPerMinute = parsed.requestsPerMinute;
  if (parsed.tokensPerMinute !== null) limits.tokensPerMinute = parsed.tokensPerMinute;
  return limits;
}
