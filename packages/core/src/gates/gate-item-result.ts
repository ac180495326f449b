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
