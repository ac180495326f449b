import type { ModelPrice, PriceTable } from '@skillopt/contract';
import { CODEX_PROVIDER } from './provider.js';

const OPENAI_PRICING = 'https://platform.openai.com/docs/pricing';

/** Codex signed in with an API key is billed at the API's rates for the model it runs. */
function codexPrice(modelId: string, input: number, cachedInput: number, output: number, asOf: string): ModelPrice {
  return {
    provider: CODEX_PROVIDER,
    modelId,
    inputUsdPerMillionTokens: input,
    cachedInputUsdPerMillionTokens: cachedInput,
    outputUsdPerMillionTokens: output,
    source: OPENAI_PRICING,
    asOf,
  };
}

/**
 * Default prices, USD per million tokens, of the OpenAI models Codex runs whose standard-tier
 * rates are known (as @skillopt/backends-openai lists them). A cost is computed from the tokens
 * Codex reports and these rates, never from a cost figure of the CLI's own; a model missing here
 * (a `-codex` variant, a newer GPT-5.x, a model behind another endpoint) has cost `null`
 * (unknown) until the run config's price overrides name it.
 */
export const priceTable: PriceTable = Object.freeze([
  codexPrice('gpt-5', 1.25, 0.125, 10, '2025-08-07'),
  codexPrice('gpt-5-mini', 0.25, 0.025, 2, '2025-08-07'),
  codexPrice('gpt-5-nano', 0.05, 0.005, 0.4, '2025-08-07'),
  codexPrice('gpt-5.1', 1.25, 0.125, 10, '2025-11-13'),
]);
