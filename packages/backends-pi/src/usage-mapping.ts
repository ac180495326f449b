import type { Usage } from '@skillopt/contract';

/** The usage of one of Pi's assistant messages, as it prints it (`message.usage`). */
export interface PiUsageFields {
  input?: unknown;
  output?: unknown;
  cacheRead?: unknown;
  cacheWrite?: unknown;
}

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined);

/**
 * One model request's usage (Pi prints it on the assistant's `message_end`) in the contract's
 * terms, or undefined when it lacks the input or output count. Pi's `input` leaves out the prompt
 * read from the cache and written to it; the contract's `inputTokens` is the whole prompt, with
 * the two parts as their own fields:
 *
 *   inputTokens           = input + cacheRead + cacheWrite
 *   cachedInputTokens     = cacheRead
 *   cacheWriteInputTokens = cacheWrite
 *
 * Its `cost` is not read: cost comes from our price table.
 */
export function usageFromPi(fields: PiUsageFields): Usage | undefined {
  const input = count(fields.input);
  const outputTokens = count(fields.output);
  if (input === undefined || outputTokens === undefined) return undefined;
  const cacheRead = count(fields.cacheRead) ?? 0;
  const cacheWrite = count(fields.cacheWrite) ?? 0;
  return {
    inputTokens: input + cacheRead + cacheWrite,
    outputTokens,
    ...(cacheRead > 0 ? { cachedInputTokens: cacheRead } : {}),
    ...(cacheWrite > 0 ? { cacheWriteInputTokens: cacheWrite } : {}),
  };
}
