import type { ModelPrice } from '@skillopt/contract';
import { CLAUDE_CODE_PROVIDER } from './provider.js';

const SOURCE = 'https://platform.claude.com/docs/en/about-claude/pricing';
const AS_OF = '2026-11-29';

function price(modelId: string, input: number, cacheWrite: number, cacheRead: number, output: number): ModelPrice {
  return {
    provider: CLAUDE_CODE_PROVIDER,
    modelId,
    inputUsdPerMillionTokens: input,
    cacheWriteInputUsdPerMillionTokens: cacheWrite,
    cachedInputUsdPerMillionTokens: cacheRead,
    outputUsdPerMillionTokens: output,
    source: SOURCE,
    asOf: AS_OF,
  };
}

/**
 * Anthropic's standard API prices of the models Claude Code runs with an API key, read on the
 * `asOf` date: the run is priced from here, never from the CLI's own `total_cost_usd`. Cache writes
 * are priced at the five-minute cache's write rate (1.25 times the input rate); Claude Code's
 * result does not say which cache it wrote to. A model not listed exactly has cost `null` (unknown); add it through the run config's
 * price overrides.
 */
export const priceTable: readonly ModelPrice[] = Object.freeze([
  //    model id                 input  write  read  output
  price('claude-opus-5', /*    */ 5, 6.25, 0.5, 25),
  price('claude-opus-4-8', /*  */ 5, 6.25, 0.5, 25),
  price('claude-opus-4-7', /*  */ 5, 6.25, 0.5, 25),
  price('claude-opus-4-6', /*  */ 5, 6.25, 0.5, 25),
  price('claude-sonnet-5', /*  */ 2, 2.5, 0.2, 10),
  price('claude-sonnet-4-6', /**/ 3, 3.75, 0.3, 15),
  price('claude-haiku-4-5', /* */ 1, 1.25, 0.1, 5),
]);
