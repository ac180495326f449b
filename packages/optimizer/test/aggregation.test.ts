import { editSchema, type Edit } from '@skillopt/contract';
import { aggregateEdits, type EditPatch } from '../src/index';
import { createScriptedOptimizerDouble, NEVER_CALLED_OPTIMIZER_DOUBLE, noAbort, type RecordedCall } from './scripted-optimizer-double';
import { numberedEdits } from './fixtures';

const SKILL = '# Skill\n- rule\n';
const edit = (content: string, support: number, source: Edit['source']): Edit => editSchema.parse({ op: 'append', content, support, source });
const patch = (kind: 'failure' | 'success', name: string, support = 2): EditPatch => ({ kind, edits: [edit(name, support, kind)] });

/** Merges every input edit into one whose content shows the merge tree. */
function mergeReply(call: RecordedCall): string {
  const inputs = numberedEdits(call.prompt);
  return JSON.stringify({
    reasoning: 'merged',
    edits: [
      { op: 'append', content: `(${inputs.map((input) => input.edit.content).join(' + ')})`, mergedFrom: inputs.map((input) => input.number), support: 1000 },
    ],
  });
}

describe('aggregateEdits', () => {
  test('a merge batch size below 2 is rejected with a clear error', async () => {
    await expect(
      aggregateEdits({ model: NEVER_CALLED_OPTIMIZER_DOUBLE, signal: noAbort(), skill: SKILL, patches: [], mergeBatchSize: 1 }),
    ).rejects.toMatchObject({
      code: 'config-invalid',
      message: expect.stringContaining('mergeBatchSize must be a whole number of at least 2'),
    });
  });

  test('a single patch passes through with no merge call', async () => {
    const result = await aggregateEdits({
      model: NEVER_CALLED_OPTIMIZER_DOUBLE,
      signal: noAbort(),
      skill: SKILL,
      patches: [patch('failure', 'A'), { kind: 'success', edits: [] }],
      mergeBatchSize: 2,
    });
    expect(result).toEqual({ ok: true, value: { edits: [edit('A', 2, 'failure')], mergeCalls: 0 }, attempts: 0, usage: { inputTokens: 0, outputTokens: 0 } });
  });

  test('no patches: no call and no edits', async () => {
    const result = await aggregateEdits({ model: NEVER_CALLED_OPTIMIZER_DOUBLE, signal: noAbort(), skill: SKILL, patches: [], mergeBatchSize: 3 });
    expect(result.ok && result.value.edits).toEqual([]);
  });

  test('hierarchical merge per kind, then a final merge with the failure group first', async () => {
    const patches = [...['F1', 'F2', 'F3', 'F4', 'F5'].map((name) => patch('failure', name)), ...['S1', 'S2'].map((name) => patch('success', name, 1))];
    const model = createScriptedOptimizerDouble({ reply: mergeReply });
    const result = await aggregateEdits({ model, signal: noAbort(), skill: SKILL, patches, mergeBatchSize: 2 });
    // failure: level 1 (F1+F2), (F3+F4), F5 passes; level 2 ((F1+F2)+(F3+F4)), F5; level 3 merges those two.
    // success: one call. final: one call.  2 + 1 + 1 + 1 + 1 = 6.
    expect(model.calls).toHaveLength(6);
    expect(model.calls.every((call) => call.purpose === 'merge')).toBe(true);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.mergeCalls).toBe(6);
    expect(result.value.edits).toHaveLength(1);
    expect(result.value.edits[0]?.content).toBe('((((F1 + F2) + (F3 + F4)) + F5) + (S1 + S2))');
    // Support is computed from the covered inputs (5 × 2 + 2 × 1), never from the reply's 1000.
    expect(result.value.edits[0]?.support).toBe(12);
    expect(result.value.edits[0]?.source).toBe('mixed');
    expect(result.usage).toEqual({ inputTokens: 60, outputTokens: 30 });
  });

  test('the merged result is the same whatever order calls complete in', async () => {
    const patches = ['F1', 'F2', 'F3', 'F4', 'F5', 'F6', 'F7'].map((name) => patch('failure', name));
    const outputs = await Promise.all(
      (['immediate', 'reverse', 'random'] as const).map((completionOrder) =>
        aggregateEdits({
          model: createScriptedOptimizerDouble({ reply: mergeReply, completionOrder }),
          signal: noAbort(),
          skill: SKILL,
          patches,
          mergeBatchSize: 3,
        }),
      ),
    );
    expect(outputs[1]).toEqual(outputs[0]);
    expect(outputs[2]).toEqual(outputs[0]);
    expect(outputs[0]?.ok && outputs[0].value.edits[0]?.content).toBe('((F1 + F2 + F3) + (F4 + F5 + F6) + F7)');
  });

  test('an empty merge reply is a stage failure after one re-ask, not zero edits', async () => {
    const model = createScriptedOptimizerDouble({ reply: () => '{"reasoning": "nothing to keep", "edits": []}' });
    const result = await aggregateEdits({ model, signal: noAbort(), skill: SKILL, patches: [patch('failure', 'A'), patch('failure', 'B')], mergeBatchSize: 2 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.stage).toBe('merge');
    expect(result.attempts).toBe(2);
    expect(result.reason).toContain('empty list');
    expect(model.calls[1]?.lastMessage).toContain('could not be used');
  });

  test('a mergedFrom number out of range is re-asked', async () => {
    const model = createScriptedOptimizerDouble({
      reply: (call, index) => (index === 0 ? '{"edits": [{"op": "append", "content": "x", "mergedFrom": [9]}]}' : mergeReply(call)),
    });
    const result = await aggregateEdits({ model, signal: noAbort(), skill: SKILL, patches: [patch('failure', 'A'), patch('failure', 'B')], mergeBatchSize: 2 });
    expect(result.ok && result.value.edits[0]?.content).toBe('(A + B)');
    expect(model.calls[1]?.lastMessage).toContain('numbered 1 to 2');
  });
});
