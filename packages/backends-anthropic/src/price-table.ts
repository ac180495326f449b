import type { ModelPrice } from '@skillopt/contract';
import { ANTHROPIC_PROVIDER } from './provider.js';

/**
 * A model's price with Anthropic's 1-hour cache-write rate beside the contract's fields. The
 * contract's cache-write rate is the 5-minute one, which `cache_control: {type: 'ephemeral'}` (what
 * this package sends) writes to.
 */
export interface AnthropicModelPrice extends ModelPrice {
  cacheWriteInputUsdPerMillionTokens: number;
  /** Writing to the 1-hour cache, USD per million tokens (not used by this package). */
  cacheWrite1hUsdPerMillionTokens: number;
}

const SOURCE = 'https://platform.claude.com/docs/en/about-claude/pricing';
const AS_OF = '2026-11-29';

function price(modelId: string, input: number, cacheWrite5m: number, cacheWrite1h: number, cacheRead: number, output: number): AnthropicModelPrice {
  return {
    provider: ANTHROPIC_PROVIDER,
    modelId,
    inputUsdPerMillionTokens: input,
    cachedInputUsdPerMillionTokens: cacheRead,
    outputUsdPerMillionTokens: output,
    cacheWriteInputUsdPerMillionTokens: cacheWrite5m,
    cacheWrite1hUsdPerMillionTokens: cacheWrite1h,
    source: SOURCE,
    asOf: AS_OF,
  };
}

/**
 * Standard (not batch) API prices of the models whose flat per-token rates Anthropic's pricing
 * page lists, read on the `asOf` date. Left out on purpose, so their cost is `null` (unknown)
 * rather than a guess: models priced by prompt length (Claude Haiku 5.5), models whose rates changed
 * recently or carry footnotes (Claude Sonnet 5.5, Fable and Mythos), retired or deprecated models,
 * and every model id not listed here exactly (a dated snapshot needs its own entry). Add your own
 * through the run config's price overrides; they win over this table.
 */
export const priceTable: readonly AnthropicModelPrice[] = Object.freeze([
  //    model id                     input  5m write 1h write  read  output
  price('claude-opus-5', /*        */ 5, 6.25, 10, 0.5, 25),
  price('claude-opus-4-8', /*      */ 5, 6.25, 10, 0.5, 25),
  price('claude-opus-4-7', /*      */ 5, 6.25, 10, 0.5, 25),
  price('claude-opus-4-6', /*      */ 5, 6.25, 10, 0.5, 25),
  price('claude-sonnet-5', /*      */ 2, 2.5, 4, 0.2, 10),
  price('claude-sonnet-4-6', /*    */ 3, 3.75, 6, 0.3, 15),
  price('claude-haiku-4-5', /*     */ 1, 1.25, 2, 0.1, 5),
  price('claude-haiku-4-5-20251001', 1, 1.25, 2, 0.1, 5),
]);

/** The package's default prices, as core reads them (`priceTable` of the package entry). */
