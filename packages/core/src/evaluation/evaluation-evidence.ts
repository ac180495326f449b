import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import type { ItemEvaluation } from './item-evaluation.js';

export interface EvaluationEvidenceOptions {
  /** What was evaluated, for the message: "the baseline evaluation of the initial skill". */
  description: string;
  /** The largest share of an evaluation's items that may be excluded (`run.max_excluded_share`). */
  maxExcludedShare: number;
  /** What the user does next, appended to the message (for instance the command that resumes). */
  nextStep?: string | undefined;
}

/**
 * An evaluation is evidence only when enough of its items were scored: a mean over none of them,
 * or over a few survivors of a broken endpoint, would be read as a score. Refuses one that
 * excluded every item, or more than the allowed share, with the failures that excluded them (the
 * commonest first), so that a dead endpoint reads as a dead endpoint and never as "0%".
 */
export function assertEvaluationIsEvidence(items: readonly ItemEvaluation[], options: EvaluationEvidenceOptions): void {
  const excluded = items.filter((item) => item.status === 'excluded');
  if (excluded.length === 0) return;
  const share = excluded.length / items.length;
  if (excluded.length < items.length && share <= options.maxExcludedShare) return;
  const extent =
    excluded.length === items.length
      ? `every one of its ${items.length} items`
      : `${excluded.length} of its ${items.length} items (${Math.round(share * 100)}%, more than run.max_excluded_share = ${options.maxExcludedShare})`;
  throw new SkillOptError({
    code: ERROR_CODES.evaluationExcluded,
    category: 'provider',
    message:
      `${options.description} excluded ${extent} for infrastructure failures, so it measured nothing: ${describeCauses(excluded)}. ` +
      `Check that the backend is reachable and its key is valid (\`skillopt doctor\`)${options.nextStep ? `, then ${options.nextStep}` : ''}.`,
    details: { excludedItems: excluded.length, evaluatedItems: items.length },
  });
}

/** The distinct failures, commonest first, each once with how many items it excluded. */
function describeCauses(excluded: ReadonlyArray<Extract<ItemEvaluation, { status: 'excluded' }>>): string {
  const counts = new Map<string, number>();
  for (const item of excluded) {
    const firstLine = item.error.message.split('\n')[0] ?? '';
    const cause = `${item.error.code}: ${firstLine}`;
    counts.set(cause, (counts.get(cause) ?? 0) + 1);
  }
  const causes = [...counts.entries()].sort((left, right) => right[1] - left[1]);
  const shown = causes.slice(0, 3).map(([cause, count]) => `${cause} (${count} ${count === 1 ? 'item' : 'items'})`);
  const hidden = causes.length - shown.length;
  return shown.join('; ') + (hidden > 0 ? `; and ${hidden} other ${hidden === 1 ? 'failure' : 'failures'}` : '');
}
