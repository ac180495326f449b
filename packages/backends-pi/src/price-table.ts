import type { ModelPrice, PriceTable } from '@skillopt/contract';
import { PI_PROVIDER } from './provider.js';

const OPENAI_PRICING = 'https://platform.openai.com/docs/pricing';
const ANTHROPIC_PRICING = 'https://platform.claude.com/docs/en/about-claude/pricing';

/** Pi with an API key is billed at the provider's API rates for the model it runs. */
function piPrice(modelId: string, rates: { input: number; cachedInput: number; output: number }, source: string, asOf: string): ModelPrice {
  return {
    provider: PI_PROVIDER,
    modelId,
    inputUsdPerMillionTokens: rates.input,
    cachedInputUsdPerMillionTokens: rates.cachedInput,
    outputUsdPerMillionTokens: rates.output,
    source,
    asOf,
  };
}

/**
 * Default prices, USD per million tokens, of the models Pi most often runs through this package's
 * provider whose standard rates are known (as @skillopt/backends-openai and
 * @skillopt/backends-anthropic list them): OpenAI's over the OpenAI APIs, Anthropic's over
 * anthropic-messages. A cost is computed from the tokens Pi reports and these rates, never from
 * Pi's own cost figure; a model missing here (a local server's, a gateway's) has cost `null`
 * (unknown) until the run config's price overrides name it.
 */
export const priceTable: PriceTable = Object.freeze([
  piPrice('gpt-5', { input: 1.25, cachedInput: 0.125, output: 10 }, OPENAI_PRICING, '2025-08-07'),
  piPrice('gpt-5-mini', { input: 0.25, cachedInput: 0.025, output: 2 }, OPENAI_PRICING, '2025-08-07'),
  piPrice('gpt-5-nano', { input: 0.05, cachedInput: 0.005, output: 0.4 }, OPENAI_PRICING, '2025-08-07'),
  piPrice('gpt-5.1', { input: 1.25, cachedInput: 0.125, output: 10 }, OPENAI_PRICING, '2025-11-13'),
  piPrice('claude-sonnet-4-6', { input: 3, cachedInput: 0.3, output: 15 }, ANTHROPIC_PRICING, '2026-11-29'),
  piPrice('claude-haiku-4-5', { input: 1, cachedInput: 0.1, output: 5 }, ANTHROPIC_PRICING, '2026-11-29'),
]);
