import type { PriceTable } from '@skillopt/contract';
import type { SkillOptConfig } from './core-config-schema.js';

/** The config's `prices.overrides` as the cost calculator reads them: they win over the packages' own tables. */
export function priceOverridesFromConfig(config: Pick<SkillOptConfig, 'prices'>): PriceTable {
  return config.prices.overrides.map((override) => ({
    provider: override.provider,
    modelId: override.model,
    inputUsdPerMillionTokens: override.input_usd_per_million,
    ...(override.cached_input_usd_per_million === undefined ? {} : { cachedInputUsdPerMillionTokens: override.cached_input_usd_per_million }),
    ...(override.cache_write_usd_per_million === undefined ? {} : { cacheWriteInputUsdPerMillionTokens: override.cache_write_usd_per_million }),
    outputUsdPerMillionTokens: override.output_usd_per_million,
    source: override.source,
    asOf: override.as_of,
  }));
}
