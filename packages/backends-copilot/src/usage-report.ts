import { addUsage, type Usage } from '@skillopt/contract';

/** The token counts of one model in Copilot's usage report (`modelMetrics.<model>.usage`). */
export interface CopilotUsageFields {
  inputTokens?: unknown;
  outputTokens?: unknown;
  cacheReadTokens?: unknown;
  cacheWriteTokens?: unknown;
  reasoningTokens?: unknown;
}

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined);

/**
 * One model's counts in the contract's terms, or undefined when the input or output count is
 * missing. Copilot counts the tokens read from and written to the prompt cache inside
 * `inputTokens` (its own uncached figure is `inputTokens - cacheReadTokens - cacheWriteTokens`),
 * as the contract does, so they map to `cachedInputTokens` and `cacheWriteInputTokens` unchanged.
 */
export function usageFromCopilot(fields: CopilotUsageFields): Usage | undefined {
  const inputTokens = count(fields.inputTokens);
  const outputTokens = count(fields.outputTokens);
  if (inputTokens === undefined || outputTokens === undefined) return undefined;
  const cachedInputTokens = count(fields.cacheReadTokens);
  const cacheWriteInputTokens = count(fields.cacheWriteTokens);
  const reasoningTokens = count(fields.reasoningTokens);
  return {
    inputTokens,
    outputTokens,
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
    ...(cacheWriteInputTokens === undefined ? {} : { cacheWriteInputTokens }),
    ...(reasoningTokens === undefined ? {} : { reasoningTokens }),
  };
}

/**
 * The usage of a whole run from the report `--usage-output-file` wrote when Copilot ended: the
 * counts of every model it called (`modelMetrics`, sub agents included), summed. Undefined when
 * the report is not an object or names no model with counts (a run that failed before its first
 * answer writes `modelMetrics: {}`).
 */
export function usageFromReport(report: unknown): Usage | undefined {
  if (typeof report !== 'object' || report === null) return undefined;
  const metrics = (report as { modelMetrics?: unknown }).modelMetrics;
  if (typeof metrics !== 'object' || metrics === null) return undefined;
  const usages = Object.values(metrics as Record<string, unknown>).flatMap((model) => {
    const usage = usageFromCopilot(((model as { usage?: unknown } | null)?.usage ?? {}) as CopilotUsageFields);
    return usage === undefined ? [] : [usage];
  });
  return usages.length === 0 ? undefined : addUsage(...usages);
}
