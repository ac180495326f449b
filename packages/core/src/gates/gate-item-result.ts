import { ERROR_CODES, SkillOptError } from '@skillopt/contract';

/**
 * What a gate needs to know about one item of an evaluation. The evaluator's `ItemEvaluation`
 * fits this shape; so does anything a caller builds by hand (a cached step record, a test).
 * An `excluded` item had an infrastructure failure and has no score.
 */
export type GateItemResult =
  | { itemId: string; status: 'scored'; hard: number; soft: number }
  | { itemId: string; status: 'excluded'; error?: { code: string; message?: string } };

/** The original's pass mark (§0): a fractional `hard` such as 0.5 is a pass, only ~0 is a failure. */
export function isPassingHardScore(hard: number): boolean {
  return hard >= 1e-9;
}

/**
 * A chunk's results in the chunk's item order (an evaluator may answer in any order). A missing
 * result is an internal error naming the gate and the side that asked for it.
 */
export function resultsInItemOrder<Item extends { id: string }>(
  chunk: readonly Item[],
  results: readonly GateItemResult[],
  asker: { gate: string; side: 'candidate' | 'incumbent' },
): GateItemResult[] {
  const byId = new Map(results.map((result) => [result.itemId, result]));
  return chunk.map((item) => {
    const result = byId.get(item.id);
    if (result === undefined) {
      throw new SkillOptError({
        code: ERROR_CODES.internal,
        category: 'internal',
        message: `the ${asker.gate} gate asked for the ${asker.side}'s result on item "${item.id}" and got none`,
        details: { itemId: item.id },
      });
    }
    return result;
  });
}
