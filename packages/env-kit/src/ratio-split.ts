import { ERROR_CODES, SkillOptError, SPLIT_NAMES, type SplitName } from '@skillopt/contract';
import { seededShuffle } from './seeded-random.js';

/** Weights for train, val and test: `[2, 1, 7]` or the config form `"2:1:7"` (decimals allowed). */
export type SplitRatio = readonly [number, number, number] | string;

export interface SplitByRatioOptions {
  ratio: SplitRatio;
  /** Any safe integer; the same seed gives the same split on every machine. */
  seed: number;
}

// Decimal weights are turned into integers so that counting is exact: "0.2:0.1:0.7" and "2:1:7"
// give the same split, and no floating-point rounding can move an item between splits.
const MAXIMUM_DECIMAL_PLACES = 6;

function ratioError(message: string, ratio: unknown): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message, details: { ratio } });
}

function decimalPlaces(weight: number): number {
  const text = String(weight);
  if (/e/i.test(text)) return Number.POSITIVE_INFINITY;
  const point = text.indexOf('.');
  return point === -1 ? 0 : text.length - point - 1;
}

/**
 * Parses and checks a split ratio: three finite, non-negative weights that are not all zero.
 * A zero weight is allowed and gives an empty split.
 */
export function parseSplitRatio(ratio: SplitRatio): [number, number, number] {
  const parts = typeof ratio === 'string' ? ratio.split(':').map((part) => (part.trim() === '' ? Number.NaN : Number(part.trim()))) : [...ratio];
  if (parts.length !== SPLIT_NAMES.length) {
    throw ratioError(`a split ratio has three weights (train:val:test), got ${JSON.stringify(ratio)}`, ratio);
  }
  for (const weight of parts) {
    if (!Number.isFinite(weight) || weight < 0) {
      throw ratioError(`split ratio weights are finite numbers >= 0, got ${JSON.stringify(ratio)}`, ratio);
    }
    if (decimalPlaces(weight) > MAXIMUM_DECIMAL_PLACES) {
      throw ratioError(`split ratio weights take at most ${MAXIMUM_DECIMAL_PLACES} decimal places, got ${JSON.stringify(ratio)}`, ratio);
    }
  }
  if (parts.every((weight) => weight === 0)) throw ratioError(`split ratio weights cannot all be 0`, ratio);
  return parts as [number, number, number];
}

/**
 * How many of `total` items each part gets, by the largest-remainder method: every part first gets
 * the floor of its exact share `total·w/Σw`; the units left over go one each to the parts with the
 * largest fractional remainders, ties going to the larger weight and then to the earlier part.
 * The arithmetic is exact (integers), so the counts never depend on floating-point rounding.
 */
export function countsByLargestRemainder(total: number, weights: readonly number[]): number[] {
  if (!Number.isSafeInteger(total) || total < 0) throw new RangeError(`total must be an integer >= 0, got ${total}`);
  const places = Math.max(0, ...weights.map(decimalPlaces));
  if (!Number.isFinite(places) || places > MAXIMUM_DECIMAL_PLACES) {
    throw new RangeError(`weights take at most ${MAXIMUM_DECIMAL_PLACES} decimal places`);
  }
  const scale = 10 ** places;
  const integerWeights = weights.map((weight) => {
    if (!Number.isFinite(weight) || weight < 0) throw new RangeError(`weights are finite numbers >= 0, got ${weight}`);
    return BigInt(Math.round(weight * scale));
  });
  const weightSum = integerWeights.reduce((sum, weight) => sum + weight, 0n);
  if (weightSum === 0n) throw new RangeError('weights cannot all be 0');
  const bigTotal = BigInt(total);
  const floors = integerWeights.map((weight) => (bigTotal * weight) / weightSum);
  // Every remainder shares the denominator Σw, so comparing numerators compares the fractions.
  const remainders = integerWeights.map((weight) => (bigTotal * weight) % weightSum);
  let leftover = Number(bigTotal - floors.reduce((sum, count) => sum + count, 0n));
  const order = integerWeights
    .map((weight, index) => ({ index, weight, remainder: remainders[index] ?? 0n }))
    .sort((left, right) => {
      if (left.remainder !== right.remainder) return left.remainder > right.remainder ? -1 : 1;
      if (left.weight !== right.weight) return left.weight > right.weight ? -1 : 1;
      return left.index - right.index;
    });
  const counts = floors.map(Number);
  for (const part of order) {
    if (leftover === 0) break;
    counts[part.index] = (counts[part.index] ?? 0) + 1;
    leftover -= 1;
  }
  return counts;
}

/**
 * Splits one pool of items into train, val and test: a seeded shuffle of a copy (see
 * `seededShuffle`), then consecutive runs of the largest-remainder counts, in the order train, val,
 * test. Deterministic on every machine; it does not reproduce the Python original's splits, which
 * shuffle with CPython's Mersenne Twister (the counts agree with the original's for integer weights).
 */
export function splitByRatio<T>(items: readonly T[], options: SplitByRatioOptions): Record<SplitName, T[]> {
  const weights = parseSplitRatio(options.ratio);
  if (!Number.isSafeInteger(options.seed)) {
    throw ratioError(`the split seed must be an integer, got ${String(options.seed)}`, options.ratio);
  }
  const counts = countsByLargestRemainder(items.length, weights);
  const shuffled = seededShuffle(items, options.seed);
  const result = {} as Record<SplitName, T[]>;
  let start = 0;
  SPLIT_NAMES.forEach((split, index) => {
    const count = counts[index] ?? 0;
    result[split] = shuffled.slice(start, start + count);
    start += count;
  });
  return result;
}
