import { isPassingHardScore, type GateItemResult } from './gate-item-result.js';
import type { ItemDelta } from './item-pairing.js';

/** A rule that blocks a candidate whatever its mean score, with the items that triggered it. */
export interface GateVeto {
  rule: 'no-regression' | 'must-pass';
  itemIds: string[];
  message: string;
}

/**
 * `no_regression`: no item scored on both sides may get worse (per-item gate metric, density bonus
 * left out). A mean can rise while one task breaks; this rule refuses that trade. Items excluded
 * on either side are not compared (see `pairItemResults`): an infrastructure failure says nothing
 * about a regression.
 */
export function noRegressionVeto(deltas: readonly ItemDelta[]): GateVeto | undefined {
  const regressed = deltas.filter((delta) => delta.change === 'regressed').map((delta) => delta.itemId);
  if (regressed.length === 0) return undefined;
  return {
    rule: 'no-regression',
    itemIds: regressed,
    message: `no-regression: ${regressed.length} item(s) got worse (${regressed.join(', ')})`,
  };
}

/**
 * Must-pass items: the candidate must pass every one (hard above 0, the original's pass mark). An
 * item that was not scored for the candidate — excluded after retries, or not evaluated at all —
 * also vetoes: a guarantee that could not be checked is not given.
 */
export function mustPassVeto(candidate: readonly GateItemResult[], mustPassItemIds: readonly string[]): GateVeto | undefined {
  if (mustPassItemIds.length === 0) return undefined;
  const byId = new Map(candidate.map((result) => [result.itemId, result]));
  const failed: string[] = [];
  const unverified: string[] = [];
  for (const itemId of mustPassItemIds) {
    const result = byId.get(itemId);
    if (result === undefined || result.status !== 'scored') unverified.push(itemId);
    else if (!isPassingHardScore(result.hard)) failed.push(itemId);
  }
  if (failed.length === 0 && unverified.length === 0) return undefined;
  const parts = [
    ...(failed.length > 0 ? [`failed ${failed.join(', ')}`] : []),
    ...(unverified.length > 0 ? [`could not verify ${unverified.join(', ')} (not scored)`] : []),
  ];
  return { rule: 'must-pass', itemIds: [...failed, ...unverified], message: `must-pass: ${parts.join('; ')}` };
}
