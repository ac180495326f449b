import type { ModelPrice, PriceTable } from '@skillopt/contract';
import { PRESETS } from './presets.js';

/*
 * Default prices, USD per million tokens, standard (not batch, not priority) tier. Only figures
 * we are sure of are listed, each with its source and the date it held: a model missing here has
 * cost `null` (unknown) in reports, never a guess. The user's `price overrides` win over these, and
 * are the way to price a model left out (newer GPT-5.x models, Azure deployments, Qwen, MiniMax,
 * DeepSeek — whose prices vary by region, date or discount window).
 *
 * Provider keys are the ChatModel's `provider`: `openai` for the OpenAI API. Azure OpenAI
 * (`azure-openai`) is billed by Azure per region and deployment type, so it has no defaults.
 */

const OPENAI_PRICING = 'https://platform.openai.com/docs/pricing';

function openAiPrice(modelId: string, input: number, cachedInput: number, output: number, asOf: string): ModelPrice {
  return {
    provider: 'openai',
    modelId,
    inputUsdPerMillionTokens: input,
    cachedInputUsdPerMillionTokens: cachedInput,
    outputUsdPerMillionTokens: output,
    source: OPENAI_PRICING,
    asOf,
  };
}

// As listed on OpenAI's pricing page on the date given (o3: after its June 2025 price cut).
const OPENAI_PRICES: PriceTable = [
  openAiPrice('gpt-4o', 2.5, 1.25, 10, '2025-08-07'),
  openAiPrice('gpt-4o-mini', 0.15, 0.075, 0.6, '2025-08-07'),
  openAiPrice('gpt-4.1', 2, 0.5, 8, '2025-08-07'),
  openAiPrice('gpt-4.1-mini', 0.4, 0.1, 1.6, '2025-08-07'),
  openAiPrice('gpt-4.1-nano', 0.1, 0.025, 0.4, '2025-08-07'),
  openAiPrice('o3', 2, 0.5, 8, '2025-08-07'),
  openAiPrice('o3-mini', 1.1, 0.55, 4.4, '2025-08-07'),
  openAiPrice('o4-mini', 1.1, 0.275, 4.4, '2025-08-07'),
  openAiPrice('gpt-5', 1.25, 0.125, 10, '2025-08-07'),
  openAiPrice('gpt-5-mini', 0.25, 0.025, 2, '2025-08-07'),
  openAiPrice('gpt-5-nano', 0.05, 0.005, 0.4, '2025-08-07'),
  openAiPrice('gpt-5.1', 1.25, 0.125, 10, '2025-11-13'),
];

/**
 * Self-hosted servers (vLLM, Ollama, llama.cpp) charge nothing per token: every model of theirs is
 * priced 0 (`*`), so reports show $0 rather than "unknown". Point such a preset at a paid host and
 * add an override for it.
 */
const LOCAL_PRICES: PriceTable = Object.values(PRESETS)
  .filter((preset) => preset.local)
  .map((preset) => ({
    provider: preset.provider,
    modelId: '*',
    inputUsdPerMillionTokens: 0,
    outputUsdPerMillionTokens: 0,
    source: `a self-hosted ${preset.provider} server charges nothing per token (the hardware is yours)`,
    asOf: '2026-11-29',
  }));

export const priceTable: PriceTable = Object.freeze([...OPENAI_PRICES, ...LOCAL_PRICES]);
