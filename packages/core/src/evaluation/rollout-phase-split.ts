import type { RolloutPhase, SplitName } from '@skillopt/contract';

/** The split whose items each phase rolls out (the slow update samples the training split). */
const SPLIT_OF_PHASE: Readonly<Record<RolloutPhase, SplitName>> = {
  train: 'train',
  'slow-update': 'train',
  baseline: 'val',
  selection: 'val',
  test: 'test',
};

export function splitOfRolloutPhase(phase: RolloutPhase): SplitName {
  return SPLIT_OF_PHASE[phase];
}
