import type { SeededRandom } from '@skillopt/env-kit';
import { simulatePairedGate, type SimulationScenario } from './paired-gate-simulation.js';

// Each test simulates 2000 gates, which a loaded machine slows many times over: the limit is there
// to catch a hang, not to time the simulation.
jest.setTimeout(300_000);

/**
 * Seeded Monte Carlo checks of the paired gate's error rates and savings. Everything asserted is a
 * count or a rate over many trials; nothing depends on time. With 2000 trials the standard error of
 * a rate near 0.05 is about 0.005, so a tolerance of 0.015 is three standard errors.
 */
const ALPHA = 0.05;
const TOLERANCE = 0.015;
const settings = { chunkSize: 6, alpha: ALPHA, futility: 0 };
const itemDifficulty = (random: SeededRandom): number => random.nextFloat();

/** Candidate and incumbent are equally good: every accept is a false accept. */
const nullHard: SimulationScenario = { items: 60, incumbentChance: itemDifficulty, effect: 0, metric: 'hard' };
const nullSoft: SimulationScenario = { items: 60, incumbentChance: itemDifficulty, effect: 0, metric: 'soft' };

describe('paired gate simulation: false accepts under the null (candidate no better)', () => {
  it("keeps the false-accept rate at or below α with onInconclusive 'reject' (hard metric)", async () => {
    const tally = await simulatePairedGate(nullHard, { ...settings, onInconclusive: 'reject' }, 2000, 11);
    expect(tally.pairedAccepts / tally.trials).toBeLessThanOrEqual(ALPHA + TOLERANCE);
    // The comparison strict makes on the very same trials accepts close to half of them.
    expect(tally.strictAccepts / tally.trials).toBeGreaterThan(0.3);
  });

  it("keeps the false-accept rate at or below α with onInconclusive 'reject' (soft metric)", async () => {
    const tally = await simulatePairedGate(nullSoft, { ...settings, onInconclusive: 'reject' }, 2000, 12);
    expect(tally.pairedAccepts / tally.trials).toBeLessThanOrEqual(ALPHA + TOLERANCE);
  });

  it('with the strict fallback, the test’s own accepts stay within α and the total within strict’s rate plus α', async () => {
    const tally = await simulatePairedGate(nullHard, settings, 2000, 13);
    expect(tally.testAccepts / tally.trials).toBeLessThanOrEqual(ALPHA + TOLERANCE);
    expect(tally.pairedAccepts / tally.trials).toBeLessThanOrEqual(tally.strictAccepts / tally.trials + ALPHA + TOLERANCE);
  });

  it('accepts a slightly worse candidate no more often than strict does', async () => {
    const worse: SimulationScenario = { ...nullHard, effect: -0.1 };
    const tally = await simulatePairedGate(worse, settings, 1000, 14);
    expect(tally.pairedAccepts).toBeLessThanOrEqual(tally.strictAccepts);
  });
});

describe('paired gate simulation: early stopping on large differences', () => {
  it('accepts a much better candidate after far fewer items than the selection set', async () => {
    const better: SimulationScenario = { items: 60, incumbentChance: () => 0.3, effect: 0.6, metric: 'hard' };
    const tally = await simulatePairedGate(better, settings, 500, 15);
    expect(tally.pairedAccepts / tally.trials).toBeGreaterThanOrEqual(0.99);
    expect(tally.stoppedEarly / tally.trials).toBeGreaterThanOrEqual(0.99);
    expect(tally.itemsEvaluated / tally.trials).toBeLessThan(30);
  });

  it('rejects a much worse candidate after far fewer items than the selection set', async () => {
    const worse: SimulationScenario = { items: 60, incumbentChance: () => 0.9, effect: -0.6, metric: 'hard' };
    const tally = await simulatePairedGate(worse, settings, 500, 16);
    expect(tally.pairedAccepts).toBe(0);
    expect(tally.stoppedEarly / tally.trials).toBeGreaterThanOrEqual(0.99);
    expect(tally.itemsEvaluated / tally.trials).toBeLessThan(30);
  });
});

describe('paired gate simulation: the futility stop', () => {
  // The same seed draws the same trials, so the two gates below judge identical candidates.
  const withFutility = { ...settings, chunkSize: 10, futility: 0.2 };
  const without = { ...withFutility, futility: 0 };

  it('only turns accepts into rejections, and accepts a candidate that is no better less often than strict', async () => {
    const stopped = await simulatePairedGate(nullHard, withFutility, 1000, 23);
    const full = await simulatePairedGate(nullHard, without, 1000, 23);
    expect(stopped.pairedAccepts).toBeLessThan(full.pairedAccepts);
    expect(stopped.pairedAccepts).toBeLessThan(stopped.strictAccepts);
    // It stops about half of these gates early, on about two thirds of the items on average.
    expect(stopped.stoppedEarly / stopped.trials).toBeGreaterThan(0.4);
    expect(stopped.itemsEvaluated).toBeLessThan(0.75 * full.itemsEvaluated);
  });

  it('evaluates a worse candidate on under half of the items', async () => {
    const worse: SimulationScenario = { ...nullHard, effect: -0.1 };
    const stopped = await simulatePairedGate(worse, withFutility, 1000, 22);
    const full = await simulatePairedGate(worse, without, 1000, 22);
    expect(stopped.itemsEvaluated).toBeLessThan(0.5 * full.itemsEvaluated);
    expect(stopped.pairedAccepts).toBeLessThanOrEqual(stopped.strictAccepts);
  });

  it('works on the soft metric too', async () => {
    const stopped = await simulatePairedGate(nullSoft, withFutility, 1000, 23);
    const full = await simulatePairedGate(nullSoft, without, 1000, 23);
    expect(stopped.pairedAccepts).toBeLessThan(full.pairedAccepts);
    expect(stopped.itemsEvaluated).toBeLessThan(0.85 * full.itemsEvaluated);
  });

  it('keeps more than nine in ten of the accepts of a candidate that is really better', async () => {
    const better: SimulationScenario = { ...nullHard, effect: 0.15 };
    const stopped = await simulatePairedGate(better, withFutility, 1000, 24);
    expect(stopped.strictAccepts / stopped.trials).toBeGreaterThan(0.9);
    expect(stopped.pairedAccepts / stopped.strictAccepts).toBeGreaterThan(0.9);
  });
});
