import type { ModelPrice, PriceTable } from '@skillopt/contract';
import { COPILOT_PROVIDER } from './provider.js';

const OPENAI_PRICING = 'https://platform.openai.com/docs/pricing';

/** Copilot in BYOK mode calls your provider with your key: it is billed at that provider's rates for the model, not in Copilot requests. */
function openAiPrice(modelId: string, input: number, cachedInput: number, output: number, asOf: string): ModelPrice {
  return {
    provider: COPILOT_PROVIDER,
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
 * (as @skillopt/backends-openai lists them), for Copilot pointed at OpenAI's API. A cost is
 * computed from the tokens of Copilot's usage report and these rates, never from a cost or
 * premium-request figure of the CLI's own (BYOK runs report 0); a model missing here (another
 * provider's, one behind a gateway, the simulator's) has cost `null` (unknown) until the run
 * config's price overrides name it.
 */
export const priceTable: PriceTable = Object.freeze([
  openAiPrice('gpt-5', 1.25, 0.125, 10, '2025-08-07'),
  openAiPrice('gpt-5-mini', 0.25, 0.025, 2, '2025-08-07'),
  openAiPrice('gpt-5-nano', 0.05, 0.005, 0.4, '2025-08-07'),
  openAiPrice('gpt-5.1', 1.25, 0.125, 10, '2025-11-13'),
]);
