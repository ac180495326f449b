import type { Usage } from '@skillopt/contract';

/** The token counts of one OpenCode `step_finish` event (`part.tokens`), as it prints them. */
export interface OpencodeStepTokens {
  input?: unknown;
  output?: unknown;
  reasoning?: unknown;
  cache?: { read?: unknown; write?: unknown } | undefined;
}

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined);

/**
 * One model call's usage (an OpenCode step) in the contract's terms, or undefined when it lacks the
 * input or output count. OpenCode prints `input` without the cached and cache-written tokens and
 * `output` without the reasoning tokens; the contract counts both inside, so they are added back:
 * the counts are then the provider's own.
 */
export function usageFromOpencodeStep(tokens: OpencodeStepTokens): Usage | undefined {
  const input = count(tokens.input);
  const output = count(tokens.output);
  if (input === undefined || output === undefined) return undefined;
  const reasoning = count(tokens.reasoning) ?? 0;
  const cacheRead = count(tokens.cache?.read) ?? 0;
  const cacheWrite = count(tokens.cache?.write) ?? 0;
  return {
    inputTokens: input + cacheRead + cacheWrite,
    outputTokens: output + reasoning,
    ...(cacheRead > 0 ? { cachedInputTokens: cacheRead } : {}),
    ...(cacheWrite > 0 ? { cacheWriteInputTokens: cacheWrite } : {}),
    ...(reasoning > 0 ? { reasoningTokens: reasoning } : {}),
  };
}
