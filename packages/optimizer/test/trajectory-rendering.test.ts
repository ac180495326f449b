import { editSchema } from '@skillopt/contract';
import { reflect, renderTrajectories, renderTrajectory, truncateMiddle } from '../src/index';
import { createScriptedOptimizerDouble, noAbort } from './scripted-optimizer-double';
import { scored } from './fixtures';

describe('trajectory rendering', () => {
  test('truncateMiddle keeps the start and the end and marks the cut', () => {
    const text = `START${'x'.repeat(1_000)}END`;
    const truncated = truncateMiddle(text, 200);
    expect(truncated.length).toBeLessThanOrEqual(200);
    expect(truncated.startsWith('START')).toBe(true);
    expect(truncated.endsWith('END')).toBe(true);
    expect(truncated).toMatch(/\[\.\.\. \d+ characters omitted \.\.\.\]/);
    expect(truncateMiddle('short', 200)).toBe('short');
  });

  test('a trajectory shows its verdict, answer, reference and turns', () => {
    const text = renderTrajectory(scored('q1', 0, { reference: 'Paris', soft: 0.25 }), 3, 10_000);
    expect(text).toBe(
      '### Trajectory 3 (id=q1, task type=factoid, hard=0, soft=0.25)\nFailure reason: wrong unit\nFinal answer: answer-q1\nReference answer: Paris\nTurns (2):\n[user] question q1\n[assistant] answer-q1',
    );
  });

  test('when even a minimal share does not fit, the last trajectories are left out and counted', () => {
    const results = Array.from({ length: 10 }, (_unused, index) => scored(`t${index}`, 0));
    const text = renderTrajectories(results, { maxCharactersPerTrajectory: 5_000, maxCharactersPerPrompt: 1_900 });
    expect(text).toContain('[... 7 more trajectories omitted: prompt size limit ...]');
    expect(text.length).toBeLessThan(1_900 + 100);
  });
});

describe('reply edits as models write them', () => {
  test('`add` reads as append, null fields are absent, self-reported support is ignored', async () => {
    const model = createScriptedOptimizerDouble({
      reply: () => '```json\n{"edits": [{"op": "add", "target": null, "content": "- rule", "support": "many"}]}\n```',
    });
    const result = await reflect({ model, signal: noAbort(), skill: '# S\n', results: [scored('f1', 0)], minibatchSize: 4, maxEditsPerAnalyst: 3 });
    expect(result.reports[0]?.edits).toEqual([editSchema.parse({ op: 'append', content: '- rule', support: 1, source: 'failure' })]);
  });

  test('an abort during reflection rejects with the abort reason', async () => {
    const controller = new AbortController();
    const model = createScriptedOptimizerDouble({
      reply: () => {
        controller.abort(new Error('run stopped'));
        return '{"edits": []}';
      },
      completionOrder: 'reverse',
    });
    await expect(
      reflect({ model, signal: controller.signal, skill: '# S\n', results: [scored('f1', 0), scored('f2', 0)], minibatchSize: 1, maxEditsPerAnalyst: 3 }),
    ).rejects.toThrow('run stopped');
  });
});
