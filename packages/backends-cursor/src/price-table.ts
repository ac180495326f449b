import type { ModelPrice, PriceTable } from '@skillopt/contract';
import { CURSOR_PROVIDER } from './provider.js';

const CURSOR_MODELS = 'https://cursor.com/docs/models';

function cursorPrice(modelId: string, input: number, cachedInput: number, output: number, asOf: string): ModelPrice {
  return {
    provider: CURSOR_PROVIDER,
    modelId,
    inputUsdPerMillionTokens: input,
    cachedInputUsdPerMillionTokens: cachedInput,
    outputUsdPerMillionTokens: output,
    source: CURSOR_MODELS,
    asOf,
  };
}

/**
 * Default prices, USD per million tokens, of the Cursor models whose rates Cursor published. A
 * cost is computed from the tokens the CLI reports (or, marked estimated, from the text when it
 * reports none) and these rates; a model missing here — the default composer-2.5 among them, and
 * every model Cursor resells from another vendor — has cost `null` (unknown) until the run
 * config's price overrides name it.
 */
export const priceTable: PriceTable = Object.freeze([cursorPrice('composer-1', 1.25, 0.125, 10, '2025-10-29')]);
