import type { TaskItem } from '@skillopt/contract';
import { seededShuffle } from '@skillopt/env-kit';

/** Steps in one epoch: every training item is seen once per epoch, `batchSize × accumulation` per step. */
export function stepsPerEpoch(trainItemCount: number, batchSize: number, accumulation: number): number {
  return Math.max(1, Math.ceil(trainItemCount / (batchSize * accumulation)));
}

export interface StepBatchesInput {
  items: readonly TaskItem[];
  epoch: number;
  stepInEpoch: number;
  batchSize: number;
  accumulation: number;
  seed: number;
}

/**
 * The batches of one step: the epoch's seeded permutation of the training items, cut into
 * consecutive slices. The last step of an epoch wraps around to the permutation's start so every
 * batch is full. A pure function of its input, so a resumed run sees exactly the batches an
 * uninterrupted one would (the original's Mersenne-Twister order is not reproduced; see env-kit).
 */
export function stepBatches(input: StepBatchesInput): TaskItem[][] {
  const { items, epoch, stepInEpoch, batchSize, accumulation, seed } = input;
  if (items.length === 0) return [];
  const permutation = seededShuffle(items, seed + epoch * 1_000_003);
  const batches: TaskItem[][] = [];
  for (let batchIndex = 0; batchIndex < accumulation; batchIndex += 1) {
    const start = ((stepInEpoch - 1) * accumulation + batchIndex) * batchSize;
    const size = Math.min(batchSize, items.length);
    batches.push(Array.from({ length: size }, (_, offset) => permutation[(start + offset) % permutation.length] as TaskItem));
  }
  return batches;
}

/** The first `count` items, or all of them when `count` is 0 (the config's "use everything"). */
export function firstItems<Item>(items: readonly Item[], count: number): Item[] {
  return count > 0 ? items.slice(0, count) : [...items];
}
