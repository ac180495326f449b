import { editSchema } from '@skillopt/contract';
import { reflect, RejectedEditBuffer, truncationMarker, type ReflectionResult } from '../src/index';
import { createScriptedOptimizerDouble, noAbort, type RecordedCall } from './scripted-optimizer-double';
import { errored, scored, trajectoryIds } from './fixtures';

const SKILL = '# Skill\n\n- UNIQUE-SKILL-LINE\n';
const results = [
  scored('f1', 0),
  scored('s1', 1),
  scored('f2', 0),
  errored('e1'),
  scored('f3', 0),
  scored('s2', 0.5),
  scored('f4', 0),
  scored('s3', 1),
  scored('f5', 0),
];

/** Replies with three edits naming the minibatch's ids, plus a self-reported support to be ignored. */
function analystReply(call: RecordedCall): string {
  const ids = trajectoryIds(call.prompt).join('+');
  const kind = call.prompt.includes('## Failed trajectories') ? 'fail' : 'succ';
  return JSON.stringify({
    reasoning: `saw ${ids}`,
    edits: [1, 2, 3].map((n) => ({ op: 'append', content: `- ${kind} rule ${n} for ${ids}`, rationale: 'r', support: 99 })),
    appendixNotes: [`Remember ${ids}.`, `remember ${ids}`],
  });
}

async function run(order: 'immediate' | 'reverse' | 'random', extra: Partial<Parameters<typeof reflect>[0]> = {}) {
  const model = createScriptedOptimizerDouble({ reply: analystReply, completionOrder: order });
  const result = await reflect({ model, signal: noAbort(), skill: SKILL, results, minibatchSize: 2, maxEditsPerAnalyst: 2, concurrency: 8, ...extra });
  return { model, result };
}

describe('reflect', () => {
  test('one call per minibatch, ordered by kind then minibatch index, support from the minibatch', async () => {
    const { model, result } = await run('immediate');
    expect(model.calls).toHaveLength(5);
    expect(model.calls.every((call) => call.purpose === 'reflect')).toBe(true);
    expect(result.reports.map((report) => [report.kind, report.minibatchIndex, report.itemIds])).toEqual([
      ['failure', 0, ['f1', 'f2']],
      ['failure', 1, ['f3', 'f4']],
      ['failure', 2, ['f5']],
      ['success', 0, ['s1', 's2']],
      ['success', 1, ['s3']],
    ]);
    expect(result.reports.map((report) => report.edits.map((edit) => edit.support))).toEqual([
      [2, 2],
      [2, 2],
      [1, 1],
      [2, 2],
      [1, 1],
    ]);
    expect(result.reports[0]?.edits[0]).toEqual(
      editSchema.parse({ op: 'append', content: '- fail rule 1 for f1+f2', rationale: 'r', support: 2, source: 'failure' }),
    );
    expect(result.reports[3]?.edits[0]?.source).toBe('success');
    expect(result.usage).toEqual({ inputTokens: 50, outputTokens: 25 });
    expect(result.calls).toBe(5);
  });

  test('each analyst output is clipped to maxEditsPerAnalyst', async () => {
    const { result } = await run('immediate');
    expect(result.reports.every((report) => report.edits.length === 2 && report.proposedEditCount === 3)).toBe(true);
  });

  test('errored results are counted and never shown to reflection', async () => {
    const { model, result } = await run('immediate');
    expect(result.erroredResultIds).toEqual(['e1']);
    expect(model.calls.some((call) => call.prompt.includes('e1'))).toBe(false);
  });

  test('the output is the same whatever order the calls complete in', async () => {
    const baseline = (await run('immediate')).result;
    const reversed = (await run('reverse')).result;
    const shuffled = (await run('random')).result;
    expect(reversed).toEqual(baseline);
    expect(shuffled).toEqual(baseline);
  });

  test('failureOnly skips the success analysts', async () => {
    const { model, result } = await run('immediate', { failureOnly: true });
    expect(model.calls).toHaveLength(3);
    expect(result.reports.every((report) => report.kind === 'failure')).toBe(true);
  });

  test('the skill is shown once per prompt, with rejected edits and the meta skill as context', async () => {
    const buffer = new RejectedEditBuffer();
    buffer.record({ globalStep: 1, edits: [editSchema.parse({ op: 'append', content: '- REJECTED-RULE' })], scoreBefore: 0.5, scoreAfter: 0.4 });
    const { model } = await run('immediate', { rejectedEdits: buffer.render(), metaSkill: 'META-NOTES' });
    for (const call of model.calls) {
      expect(call.prompt.split('UNIQUE-SKILL-LINE')).toHaveLength(2);
      expect(call.prompt).toContain('REJECTED-RULE');
      expect(call.prompt).toContain('META-NOTES');
      expect(call.prompt).not.toContain('{{');
    }
  });

  test('long trajectories are truncated with a marker and the prompt stays within its cap', async () => {
    const huge = scored('big', 0, { trajectory: { turns: [{ role: 'assistant', content: 'x'.repeat(50_000) }] } });
    const model = createScriptedOptimizerDouble({ reply: analystReply });
    await reflect({
      model,
      signal: noAbort(),
      skill: SKILL,
      results: [huge, scored('f1', 0)],
      minibatchSize: 8,
      maxEditsPerAnalyst: 2,
      trajectoryLimits: { maxCharactersPerTrajectory: 2_000, maxCharactersPerPrompt: 3_000 },
    });
    const prompt = model.calls[0]?.prompt ?? '';
    expect(prompt).toMatch(/\[\.\.\. \d+ characters omitted \.\.\.\]/);
    expect(truncationMarker(5)).toBe('[... 5 characters omitted ...]');
    expect(prompt.length).toBeLessThan(3_000 + 4_000);
    expect(trajectoryIds(prompt)).toEqual(['big', 'f1']);
  });

  test('an analyst whose replies cannot be used is reported; the others still count', async () => {
    const model = createScriptedOptimizerDouble({
      reply: (call) => (trajectoryIds(call.prompt).includes('f3') ? 'I would rather not say.' : analystReply(call)),
      completionOrder: 'random',
    });
    const result: ReflectionResult = await reflect({ model, signal: noAbort(), skill: SKILL, results, minibatchSize: 2, maxEditsPerAnalyst: 2 });
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0]).toMatchObject({
      ok: false,
      stage: 'reflect',
      prompt: 'reflect-failure',
      kind: 'failure',
      minibatchIndex: 1,
      itemIds: ['f3', 'f4'],
      attempts: 2,
    });
    expect(result.reports).toHaveLength(4);
    expect(result.calls).toBe(6);
    expect(result.usage).toEqual({ inputTokens: 60, outputTokens: 30 });
  });

  test('appendix notes are asked for and kept only where enabled, deduplicated', async () => {
    const { model, result } = await run('immediate', { appendixNoteSources: 'failure-only' });
    const failurePrompt = model.calls.find((call) => call.prompt.includes('## Failed trajectories'))?.prompt ?? '';
    const successPrompt = model.calls.find((call) => call.prompt.includes('## Successful trajectories'))?.prompt ?? '';
    expect(failurePrompt).toContain('appendixNotes');
    expect(successPrompt).not.toContain('appendixNotes');
    expect(result.reports[0]?.appendixNotes).toEqual(['Remember f1+f2.']);
    expect(result.reports[3]?.appendixNotes).toEqual([]);
  });

  test('invalid sizes are configuration errors', async () => {
    const model = createScriptedOptimizerDouble({ reply: analystReply });
    await expect(reflect({ model, signal: noAbort(), skill: SKILL, results, minibatchSize: 0, maxEditsPerAnalyst: 2 })).rejects.toMatchObject({
      code: 'config-invalid',
    });
  });
});
