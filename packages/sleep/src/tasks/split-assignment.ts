import { createHash } from 'node:crypto';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import type { TaskRecord, TaskSplit } from './task-record.js';

export interface SplitFractions {
  /** Share of real tasks held out to validate a night's edits; 0.34 unless set. */
  valFraction?: number;
  /** Share of real tasks kept out of both training and the gate, scored only for the report; 0 unless set. */
  testFraction?: number;
  /** Mixed into every task's bucket; the same seed gives the same splits night after night. */
  seed?: number;
}

export const DEFAULT_VAL_FRACTION = 0.34;
export const DEFAULT_TEST_FRACTION = 0;
export const DEFAULT_SPLIT_SEED = 42;

/**
 * Checks split fractions the way a user's config needs them checked: each a finite number in
 * [0, 1], together below 1 so that some tasks are left to train on. The original raised a bare
 * ValueError the CLI never caught (upstream-sleep §9 item 3); this is a config error naming the value.
 */
export function validateSplitFractions(fractions: SplitFractions): { valFraction: number; testFraction: number; seed: number } {
  const valFraction = fractions.valFraction ?? DEFAULT_VAL_FRACTION;
  const testFraction = fractions.testFraction ?? DEFAULT_TEST_FRACTION;
  const seed = fractions.seed ?? DEFAULT_SPLIT_SEED;
  const problems: string[] = [];
  for (const [name, value] of [
    ['valFraction', valFraction],
    ['testFraction', testFraction],
  ] as const) {
    if (!Number.isFinite(value) || value < 0 || value > 1) problems.push(`${name} must be a number from 0 to 1, got ${String(value)}`);
  }
  if (problems.length === 0 && valFraction + testFraction >= 1)
    problems.push(`valFraction + testFraction must be below 1 so that some tasks train, got ${valFraction} + ${testFraction}`);
  if (!Number.isSafeInteger(seed)) problems.push(`seed must be an integer, got ${String(seed)}`);
  if (problems.length > 0)
    throw new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: `Invalid split settings: ${problems.join('; ')}.` });
  return { valFraction, testFraction, seed };
}

/**
 * Python's `round`: halves go to the even neighbour. The cut points are rounded this way so that a
 * fraction like 0.125 (12.5 buckets) cuts where the original cut and splits match its task files.
 * `value - floor` is exact for numbers of this size, so the halfway test sees the binary value the
 * way Python does (0.145 × 100 is 14.499…, which rounds down in both).
 */
export function roundHalfToEven(value: number): number {
  const floor = Math.floor(value);
  const remainder = value - floor;
  if (remainder > 0.5) return floor + 1;
  if (remainder < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

function splitHash(seed: number, id: string): bigint {
  return BigInt(`0x${createHash('sha256').update(`${seed}${id}`).digest('hex')}`);
}

function smallestByHash(candidates: Array<{ index: number; hash: bigint; id: string }>): { index: number } | undefined {
  let best: { index: number; hash: bigint; id: string } | undefined;
  for (const candidate of candidates) {
    if (best === undefined || candidate.hash < best.hash || (candidate.hash === best.hash && candidate.id < best.id)) best = candidate;
  }
  return best;
}

/**
 * Gives every task a split from a hash of the seed and its id alone, so a task keeps its split
 * across nights and tasks added later never move the ones already there. Of 100 buckets the first
 * `valFraction` go to val, the next `testFraction` to test, the rest to train. Dream tasks always
 * train: they are made from training tasks and would leak into the gate. With two or more real
 * tasks, an empty val gets the train task of smallest hash and an empty train the val task of
 * smallest hash (test tasks are never moved), so both sides of the gate have something.
 * The input is not changed.
 */
export function assignSplits(tasks: readonly TaskRecord[], fractions: SplitFractions = {}): TaskRecord[] {
  const { valFraction, testFraction, seed } = validateSplitFractions(fractions);
  const valCut = roundHalfToEven(valFraction * 100);
  const testCut = valCut + roundHalfToEven(testFraction * 100);
  const splits: TaskSplit[] = [];
  const real: Array<{ index: number; hash: bigint; id: string }> = [];
  tasks.forEach((task, index) => {
    if (task.origin === 'dream') {
      splits.push('train');
      return;
    }
    const hash = splitHash(seed, task.id);
    const bucket = Number(hash % 100n);
    splits.push(bucket < valCut ? 'val' : bucket < testCut ? 'test' : 'train');
    real.push({ index, hash, id: task.id });
  });
  if (real.length >= 2) {
    const inSplit = (split: TaskSplit) => real.filter((entry) => splits[entry.index] === split);
    if (inSplit('val').length === 0) {
      const promoted = smallestByHash(inSplit('train'));
      if (promoted !== undefined) splits[promoted.index] = 'val';
    }
    // Dream tasks count here: they are training material already.
    if (!splits.includes('train')) {
      const promoted = smallestByHash(inSplit('val'));
      if (promoted !== undefined) splits[promoted.index] = 'train';
    }
  }
  return tasks.map((task, index) => ({ ...task, split: splits[index] as TaskSplit }));
}
