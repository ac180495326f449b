/**
 * A small seeded pseudo-random generator for reproducible shuffles: mulberry32 (Tommy Ettinger's
 * 32-bit generator, public domain). It uses only 32-bit integer operations (`Math.imul`, shifts),
 * which JavaScript defines exactly, so a seed gives the same sequence on every machine and Node
 * version. It is not cryptographic and not the original's Mersenne Twister: the same seed gives
 * different (but equally reproducible) batches and splits than the Python implementation.
 */
export interface SeededRandom {
  /** The next 32-bit unsigned integer. */
  nextUint32(): number;
  /** A float in [0, 1) with 32 bits of randomness. */
  nextFloat(): number;
  /** An integer in [0, bound) with no modulo bias; `bound` is an integer in 1..2^32. */
  nextBelow(bound: number): number;
}

const TWO_TO_THE_32 = 0x1_0000_0000;

/**
 * Folds a safe integer seed into the generator's 32-bit state. Seeds in 0..2^32-1 map one-to-one;
 * larger or negative seeds mix their high word in so they do not all collapse onto their low bits.
 */
function initialState(seed: number): number {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`the seed must be a safe integer, got ${seed}`);
  const bits = BigInt.asUintN(64, BigInt(seed));
  const low = Number(bits & 0xffff_ffffn);
  const high = Number(bits >> 32n);
  return (low ^ Math.imul(high, 0x9e37_79b9)) >>> 0;
}

export function createSeededRandom(seed: number): SeededRandom {
  let state = initialState(seed);
  const nextUint32 = (): number => {
    state = (state + 0x6d2b_79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return (mixed ^ (mixed >>> 14)) >>> 0;
  };
  return {
    nextUint32,
    nextFloat: () => nextUint32() / TWO_TO_THE_32,
    nextBelow(bound: number): number {
      if (!Number.isInteger(bound) || bound < 1 || bound > TWO_TO_THE_32) {
        throw new RangeError(`the bound must be an integer in 1..2^32, got ${bound}`);
      }
      // Rejection sampling: draws at or above the largest multiple of `bound` would favour small values.
      const limit = TWO_TO_THE_32 - (TWO_TO_THE_32 % bound);
      for (;;) {
        const draw = nextUint32();
        if (draw < limit) return draw % bound;
      }
    },
  };
}

/** A shuffled copy of `items` (Fisher–Yates, from the last position down), reproducible from `seed`. */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  const random = createSeededRandom(seed);
  const shuffled = [...items];
  for (let position = shuffled.length - 1; position > 0; position -= 1) {
    const other = random.nextBelow(position + 1);
    const held = shuffled[position] as T;
    shuffled[position] = shuffled[other] as T;
    shuffled[other] = held;
  }
  return shuffled;
}
