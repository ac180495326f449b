import type { SkillOptConfig } from '../config/core-config-schema.js';
import type { GateRules } from '../gates/gate-decision.js';
import type { PairedGateSettings } from '../gates/paired-gate.js';

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

export function pairedGateSettingsFromConfig(config: SkillOptConfig): PairedGateSettings {
  return { chunkSize: config.evaluation.paired_chunk_size, alpha: config.evaluation.paired_error_rate };
}
