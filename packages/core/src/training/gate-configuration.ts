import type { SkillOptConfig } from '../config/core-config-schema.js';
import type { GateSettings } from '../gates/candidate-gate.js';
import type { GateRules } from '../gates/gate-decision.js';

/** The gate's rules from the `evaluation` section. */
export function gateRulesFromConfig(config: SkillOptConfig): GateRules {
  const evaluation = config.evaluation;
  return {
    metric: evaluation.gate_metric,
    mixedWeight: evaluation.gate_mixed_weight,
    ...(evaluation.use_semantic_density
      ? {
          semanticDensity: {
            weight: evaluation.semantic_density_weight,
            ...(evaluation.leading_words ? { leadingWords: evaluation.leading_words } : {}),
          },
        }
      : {}),
    useGate: evaluation.use_gate,
    noRegression: evaluation.no_regression,
    mustPassItemIds: evaluation.must_pass,
  };
}

/** The gate's strategy and its settings (`evaluation.gate_strategy`, the `paired_*` keys and `strict_early_stop`). */
export function gateSettingsFromConfig(config: SkillOptConfig): GateSettings {
  const evaluation = config.evaluation;
  return evaluation.gate_strategy === 'paired'
    ? { strategy: 'paired', paired: { chunkSize: evaluation.paired_chunk_size, alpha: evaluation.paired_error_rate, futility: evaluation.paired_futility } }
    : { strategy: 'strict', ...(evaluation.strict_early_stop ? { earlyStop: { chunkSize: evaluation.paired_chunk_size } } : {}) };
}
