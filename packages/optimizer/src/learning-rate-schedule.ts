import { invalidOption } from '@skillopt/runtime-kit';

/**
 * How the learning rate (the most edits applied in one step) changes over a run. `autonomous`
 * lets the optimizer choose a value between the minimum and the maximum each step
 * (see `decideLearningRate`); the others are pure functions of the step.
 */
export const LEARNING_RATE_SCHEDULES = ['constant', 'linear', 'cosine', 'autonomous'] as const;
export type LearningRateSchedule = (typeof LEARNING_RATE_SCHEDULES)[number];
export type FixedLearningRateSchedule = Exclude<LearningRateSchedule, 'autonomous'>;

export interface LearningRateScheduleSettings {
  schedule: LearningRateSchedule;
  maxLearningRate: number;
  minLearningRate: number;
  /** Steps in the whole run (epochs × steps per epoch). */
  totalSteps: number;
}

export function validateLearningRateSettings(settings: LearningRateScheduleSettings): void {
  const { maxLearningRate, minLearningRate, totalSteps, schedule } = settings;
  if (!LEARNING_RATE_SCHEDULES.includes(schedule)) {
    throw invalidOption(`unknown learning-rate schedule "${String(schedule)}"; expected one of ${LEARNING_RATE_SCHEDULES.join(', ')}`);
  }
  if (!Number.isInteger(minLearningRate) || minLearningRate < 0) {
    throw invalidOption(`minLearningRate must be a whole number of at least 0, got ${minLearningRate}`);
  }
  if (!Number.isInteger(maxLearningRate) || maxLearningRate < minLearningRate) {
    throw invalidOption(`maxLearningRate must be a whole number no smaller than minLearningRate (${minLearningRate}), got ${maxLearningRate}`);
  }
  if (!Number.isInteger(totalSteps) || totalSteps < 1) throw invalidOption(`totalSteps must be a whole number of at least 1, got ${totalSteps}`);
}

/**
 * The scheduled learning rate at `globalStep` (1-based, counted across epochs), a pure function of
 * the step and the settings, so a resumed run uses exactly the budgets an uninterrupted one would.
 * Skipped steps still count: the schedule follows the step number, not how many steps selected.
 *
 * With p = (min(step, T) − 1) / (T − 1) (p = 0 when T = 1), running from 0 at the first step to 1
 * at the last:
 *   constant  max
 *   linear    max − (max − min) · p
 *   cosine    min + ½ (max − min) (1 + cos(π p))
 * rounded half up and kept within [min, max]. The first step gets the maximum and the last (and
 * any later) step the minimum. docs/schedules.md has a table of values.
 */
export function scheduledLearningRate(settings: LearningRateScheduleSettings & { schedule: FixedLearningRateSchedule }, globalStep: number): number {
  validateLearningRateSettings(settings);
  if (!Number.isInteger(globalStep) || globalStep < 1) throw invalidOption(`globalStep is 1-based, got ${globalStep}`);
  const { schedule, maxLearningRate: max, minLearningRate: min, totalSteps } = settings;
  if (schedule === 'constant') return max;
  const progress = totalSteps <= 1 ? 0 : (Math.min(globalStep, totalSteps) - 1) / (totalSteps - 1);
  const raw = schedule === 'linear' ? max - (max - min) * progress : min + 0.5 * (max - min) * (1 + Math.cos(Math.PI * progress));
  // Rounding to 9 decimals first keeps floating-point noise (2.4999999997) from deciding a tie.
  const rounded = Math.round(Math.round(raw * 1e9) / 1e9);
  return Math.min(max, Math.max(min, rounded));
}
