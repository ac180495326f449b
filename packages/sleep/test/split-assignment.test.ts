import { taskRecord } from './task-records.js';
import { SkillOptError } from '@skillopt/contract';
import { assignSplits, roundHalfToEven } from '../src/tasks/split-assignment.js';
import type { TaskRecord } from '../src/tasks/task-record.js';

function task(id: string, origin: TaskRecord['origin'] = 'real'): TaskRecord {
  return taskRecord({ id, origin });
}

const splitsOf = (tasks: TaskRecord[]) => Object.fromEntries(tasks.map((entry) => [entry.id, entry.split]));

describe('assignSplits', () => {
  it('keeps existing splits when a task is appended (spec vector: seed 42, val 0.34, test 0.10)', () => {
    const fractions = { valFraction: 0.34, testFraction: 0.1, seed: 42 };
    const before = splitsOf(assignSplits([task('t0'), task('t3'), task('t4')], fractions));
    const after = splitsOf(assignSplits([task('t0'), task('t3'), task('t4'), task('t1')], fractions));
    expect(before).toEqual({ t0: 'val', t3: 'val', t4: 'train' });
    expect(after).toEqual({ t0: 'val', t3: 'val', t4: 'train', t1: 'test' });
  });

  it('promotes the train task of smallest hash when no task landed in val', () => {
    expect(splitsOf(assignSplits([task('a'), task('t4'), task('t5')]))).toEqual({ a: 'train', t4: 'val', t5: 'train' });
  });

  it('promotes the val task of smallest hash when no task landed in train', () => {
    expect(splitsOf(assignSplits([task('x1'), task('x2')], { valFraction: 0.99 }))).toEqual({ x1: 'val', x2: 'train' });
  });

  it('always trains dream tasks and leaves a lone real task where its hash put it', () => {
    expect(splitsOf(assignSplits([task('t0'), task('t0_dream1', 'dream')]))).toEqual({ t0: 'val', t0_dream1: 'train' });
  });

  it('does not change its input', () => {
    const input = [task('t0'), task('t3')];
    assignSplits(input);
    expect(input.map((entry) => entry.split)).toEqual(['train', 'train']);
  });

  it.each([
    [{ valFraction: 1.2 }, /valFraction must be a number from 0 to 1, got 1.2/],
    [{ testFraction: -0.1 }, /testFraction must be a number from 0 to 1/],
    [{ valFraction: 0.6, testFraction: 0.4 }, /must be below 1/],
    [{ valFraction: Number.NaN }, /valFraction/],
    [{ seed: 1.5 }, /seed must be an integer/],
  ])('rejects %p with a config error (the original raised an uncaught ValueError)', (fractions, message) => {
    expect(() => assignSplits([task('t0')], fractions)).toThrow(SkillOptError);
    expect(() => assignSplits([task('t0')], fractions)).toThrow(message);
  });
});

describe('roundHalfToEven', () => {
  it('rounds cut points the way Python does', () => {
    expect(roundHalfToEven(12.5)).toBe(12);
    expect(roundHalfToEven(33.5)).toBe(34);
    expect(roundHalfToEven(0.145 * 100)).toBe(14);
    expect(roundHalfToEven(0.34 * 100)).toBe(34);
    expect(roundHalfToEven(10.6)).toBe(11);
  });
});
