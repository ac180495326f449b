import { editSchema, type Edit } from '@skillopt/contract';
import { selectEdits } from '../src/index';
import { createScriptedOptimizerDouble, NEVER_CALLED_OPTIMIZER_DOUBLE, noAbort } from './scripted-optimizer-double';
import { numberedEdits } from './fixtures';

const edits: Edit[] = ['a', 'b', 'c', 'd', 'e'].map((name, index) =>
  editSchema.parse({ op: 'append', content: `- rule ${name}`, support: index + 1, source: 'failure' }),
);

describe('selectEdits', () => {
  test('a learning rate of 0 keeps nothing and makes no call', async () => {
    const result = await selectEdits({ model: NEVER_CALLED_OPTIMIZER_DOUBLE, signal: noAbort(), skill: '# S', edits, learningRate: 0 });
    expect(result).toMatchObject({ ok: true, attempts: 0, value: { edits: [], selectedIndexes: [], ranked: false } });
  });

  test('when every edit fits, all are kept in merge order without a call', async () => {
    const result = await selectEdits({ model: NEVER_CALLED_OPTIMIZER_DOUBLE, signal: noAbort(), skill: '# S', edits: edits.slice(0, 3), learningRate: 3 });
    expect(result.ok && result.value.edits).toEqual(edits.slice(0, 3));
  });

  test('otherwise the optimizer ranks; duplicates dropped, cut to the learning rate, in its priority order', async () => {
    const model = createScriptedOptimizerDouble({ reply: () => '{"reasoning": "most support first", "selected": [5, 5, 2, 4, 1]}' });
    const result = await selectEdits({ model, signal: noAbort(), skill: '# S', edits, learningRate: 3, metaSkill: 'prefer small edits' });
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]?.purpose).toBe('rank');
    expect(numberedEdits(model.calls[0]?.prompt ?? '').map((item) => item.support)).toEqual([1, 2, 3, 4, 5]);
    expect(model.calls[0]?.prompt).toContain('prefer small edits');
    expect(result.ok && result.value).toEqual({
      edits: [edits[4], edits[1], edits[3]],
      selectedIndexes: [4, 1, 3],
      ranked: true,
      reasoning: 'most support first',
    });
  });

  test('an unusable ranking is re-asked once, then fails the stage (no silent truncation)', async () => {
    const model = createScriptedOptimizerDouble({ reply: () => '{"selected": []}' });
    const result = await selectEdits({ model, signal: noAbort(), skill: '# S', edits, learningRate: 2 });
    expect(result).toMatchObject({ ok: false, stage: 'rank', attempts: 2 });
  });

  test('a negative learning rate is a configuration error', async () => {
    await expect(selectEdits({ model: NEVER_CALLED_OPTIMIZER_DOUBLE, signal: noAbort(), skill: '# S', edits, learningRate: -1 })).rejects.toMatchObject({
      code: 'config-invalid',
    });
  });
});
