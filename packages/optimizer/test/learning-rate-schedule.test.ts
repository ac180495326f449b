import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chooseLearningRate, scheduledLearningRate, type FixedLearningRateSchedule } from '../src/index';
import { createScriptedOptimizerDouble, NEVER_CALLED_OPTIMIZER_DOUBLE, noAbort } from './scripted-optimizer-double';
import { editSchema } from '@skillopt/contract';

/** The rows of the values table in docs/schedules.md. */
function documentedRows(): Array<{ max: number; min: number; totalSteps: number; schedule: FixedLearningRateSchedule; values: number[] }> {
  const markdown = readFileSync(join(__dirname, '..', 'docs', 'schedules.md'), 'utf8');
  const rows = [...markdown.matchAll(/^\| (\d+) \| (\d+) \| (\d+) \| (constant|linear|cosine) \| ([\d, ]+) \|$/gm)];
  return rows.map((row) => ({
    max: Number(row[1]),
    min: Number(row[2]),
    totalSteps: Number(row[3]),
    schedule: row[4] as FixedLearningRateSchedule,
    values: (row[5] as string).split(',').map((value) => Number(value.trim())),
  }));
}

describe('learning-rate schedules', () => {
  const rows = documentedRows();

  test('the documented table has rows for every fixed schedule', () => {
    expect(rows.length).toBeGreaterThanOrEqual(8);
    expect(new Set(rows.map((row) => row.schedule))).toEqual(new Set(['constant', 'linear', 'cosine']));
  });

  test.each(rows.map((row) => [`${row.schedule} max ${row.max} min ${row.min} T ${row.totalSteps}`, row] as const))(
    '%s matches docs/schedules.md',
    (_name, row) => {
      const settings = { schedule: row.schedule, maxLearningRate: row.max, minLearningRate: row.min, totalSteps: row.totalSteps };
      const values = Array.from({ length: row.totalSteps }, (_unused, index) => scheduledLearningRate(settings, index + 1));
      expect(values).toEqual(row.values);
      expect(values.length).toBe(row.totalSteps);
    },
  );

  test('first step is the maximum, last and later steps the minimum; a pure function of the step', () => {
    const settings = { schedule: 'cosine', maxLearningRate: 16, minLearningRate: 4, totalSteps: 10 } as const;
    expect(scheduledLearningRate(settings, 1)).toBe(16);
    expect(scheduledLearningRate(settings, 10)).toBe(4);
    expect(scheduledLearningRate(settings, 25)).toBe(4);
    // A resumed run asks for step 7 directly and gets what a fresh run got at step 7.
    const fresh = Array.from({ length: 10 }, (_unused, index) => scheduledLearningRate(settings, index + 1));
    expect(scheduledLearningRate(settings, 7)).toBe(fresh[6]);
  });

  test('bad settings are configuration errors', () => {
    expect(() => scheduledLearningRate({ schedule: 'linear', maxLearningRate: 2, minLearningRate: 4, totalSteps: 8 }, 1)).toThrow(/maxLearningRate/);
    expect(() => scheduledLearningRate({ schedule: 'linear', maxLearningRate: 4, minLearningRate: 2, totalSteps: 0 }, 1)).toThrow(/totalSteps/);
    expect(() => scheduledLearningRate({ schedule: 'linear', maxLearningRate: 4, minLearningRate: 2, totalSteps: 8 }, 0)).toThrow(/1-based/);
    expect(() => scheduledLearningRate({ schedule: 'step' as never, maxLearningRate: 4, minLearningRate: 2, totalSteps: 8 }, 1)).toThrow(/unknown/);
  });

  test('chooseLearningRate computes fixed schedules without a call', async () => {
    const result = await chooseLearningRate({
      model: NEVER_CALLED_OPTIMIZER_DOUBLE,
      signal: noAbort(),
      skill: '# S',
      edits: [],
      settings: { schedule: 'linear', maxLearningRate: 4, minLearningRate: 2, totalSteps: 8 },
      globalStep: 3,
    });
    expect(result).toEqual({ ok: true, value: { learningRate: 3, decidedBy: 'schedule' }, attempts: 0, usage: { inputTokens: 0, outputTokens: 0 } });
  });

  test('autonomous: the optimizer decides within [min, max]; out-of-range answers are clamped and say so', async () => {
    const edits = [1, 2, 3, 4, 5].map((n) => editSchema.parse({ op: 'append', content: `- rule ${n}` }));
    const settings = { schedule: 'autonomous', maxLearningRate: 4, minLearningRate: 1, totalSteps: 8 } as const;
    const decide = (text: string) =>
      chooseLearningRate({
        model: createScriptedOptimizerDouble({ reply: () => text }),
        signal: noAbort(),
        skill: '# S',
        edits,
        settings,
        globalStep: 1,
        evidence: { rolloutCount: 8, meanHard: 0.25, meanSoft: 0.4 },
      });
    const within = await decide('{"reasoning": "evidence is strong", "learningRate": 3}');
    expect(within.ok && within.value).toEqual({ learningRate: 3, decidedBy: 'optimizer', requested: 3, clamped: false, reasoning: 'evidence is strong' });
    const above = await decide('{"learningRate": "9"}');
    expect(above.ok && above.value).toMatchObject({ learningRate: 4, requested: 9, clamped: true });
    const model = createScriptedOptimizerDouble({ reply: () => '{"learningRate": 2}' });
    await chooseLearningRate({ model, signal: noAbort(), skill: '# S', edits, settings, globalStep: 1 });
    expect(model.calls[0]?.purpose).toBe('lr-decide');
    expect(model.calls[0]?.prompt).toContain('from 1 to 4');
    const fraction = await decide('{"learningRate": 2.5}');
    expect(fraction.ok).toBe(false);
  });

  test('autonomous with no edits makes no call', async () => {
    const result = await chooseLearningRate({
      model: NEVER_CALLED_OPTIMIZER_DOUBLE,
      signal: noAbort(),
      skill: '# S',
      edits: [],
      settings: { schedule: 'autonomous', maxLearningRate: 4, minLearningRate: 1, totalSteps: 8 },
      globalStep: 1,
    });
    expect(result).toMatchObject({ ok: true, attempts: 0, value: { learningRate: 0 } });
  });
});
