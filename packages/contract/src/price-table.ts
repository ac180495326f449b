/**
 * What one model costs, in US dollars per million tokens. `source` (a URL or document) and `asOf`
 * (the ISO date the figures were read) are required because prices change and a cost report is
 * only as good as the table it came from. A backend package ships its defaults as `priceTable`;
 * the user's overrides win; a model in no table has cost "unknown", never a guess.
 */
export interface ModelPrice {
  provider: string;
  modelId: string;
  inputUsdPerMillionTokens: number;
  /** The rate for input served from the prompt cache; absent means no discount (the input rate). */
  cachedInputUsdPerMillionTokens?: number;
  /** The rate for input written to the prompt cache (`Usage.cacheWriteInputTokens`); absent means the input rate. */
  cacheWriteInputUsdPerMillionTokens?: number;
  /** Reasoning tokens are output tokens and are billed at this rate. */
  outputUsdPerMillionTokens: number;
  source: string;
  asOf: string;
}

export type PriceTable = readonly ModelPrice[];
