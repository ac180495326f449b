import type { ModelPrice, PriceTable } from '@skillopt/contract';
import { OPENCODE_PROVIDER } from './provider.js';

const OPENAI_PRICING = 'https://platform.openai.com/docs/pricing';

/** OpenCode pointed at OpenAI's API with an API key is billed at the API's rates for the model it runs. */
function openaiPrice(modelId: string, input: number, cachedInput: number, output: number, asOf: string): ModelPrice {
  return {
    provider: OPENCODE_PROVIDER,
    modelId,
    inputUsdPerMillionTokens: input,
    cachedInputUsdPerMillionTokens: cachedInput,
    outputUsdPerMillionTokens: output,
    source: OPENAI_PRICING,
    asOf,
  };
}

/**
 * Default prices, USD per million tokens, of the OpenAI models whose standard-tier rates are known
 * (as @skillopt/backends-openai lists them), for OpenCode at the default base URL. A cost is
 * computed from the tokens OpenCode reports and these rates, never from the `cost` of its own
 * steps (which it computes from its models catalogue, off here); a model missing here (one behind
 * another endpoint) has cost `null` (unknown) until the run config's price overrides name it.
 */
export const priceTable: PriceTable = Object.freeze([
  openaiPrice('gpt-5', 1.25, 0.125, 10, '2025-08-07'),
  openaiPrice('gpt-5-mini', 0.25, 0.025, 2, '2025-08-07'),
  openaiPrice('gpt-5-nano', 0.05, 0.005, 0.4, '2025-08-07'),
  openaiPrice('gpt-5.1', 1.25, 0.125, 10, '2025-11-13'),
]);
