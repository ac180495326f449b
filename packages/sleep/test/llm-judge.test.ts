import { scriptedModel } from './scripted-model.js';
import { createLlmJudge } from '../src/judge/llm-judge';

const task = { intent: 'list the risks', reference: 'names at least three risks with mitigations' };

describe('createLlmJudge', () => {
  it('reads a well-formed verdict, asks with purpose judge and grades by the reference', async () => {
    const model = scriptedModel(['{"score": 0.9, "reason": "three risks, each mitigated"}']);
    const verdict = await createLlmJudge({ model }).judge({ task, response: 'the answer' });
    expect(verdict).toMatchObject({ ok: true, hard: 1, soft: 0.9, rationale: 'three risks, each mitigated', attempts: 1 });
    expect(model.requests[0]?.purpose).toBe('judge');
    expect(JSON.stringify(model.requests[0]?.messages)).toContain('names at least three risks');
  });

  it('grades by the request when there is no reference', async () => {
    const model = scriptedModel(['{"score": 0.5, "reason": "partly"}']);
    await createLlmJudge({ model }).judge({ task: { intent: 'list the risks', reference: '' }, response: 'x' });
    expect(JSON.stringify(model.requests[0]?.messages)).toContain('list the risks');
  });

  it('reads a fenced verdict', async () => {
    const model = scriptedModel(['Here you go:\n```json\n{"score": 0.4, "reason": "thin"}\n```']);
    expect(await createLlmJudge({ model }).judge({ task, response: 'x' })).toMatchObject({ ok: true, hard: 0, soft: 0.4 });
  });

  it('reads a reply with two JSON blocks, which the greedy parse of the original failed (weak spot §9.11)', async () => {
    const model = scriptedModel(['{"score": 0.85, "reason": "good"}\nFor reference the rubric was {"items": 3}.']);
    expect(await createLlmJudge({ model }).judge({ task, response: 'x' })).toMatchObject({ ok: true, soft: 0.85, attempts: 1 });
  });

  it('re-asks once after a malformed reply, with the problem', async () => {
    const model = scriptedModel(['I think it is fine.', '{"score": 1, "reason": "complete"}']);
    const verdict = await createLlmJudge({ model }).judge({ task, response: 'x' });
    expect(verdict).toMatchObject({ ok: true, hard: 1, soft: 1, attempts: 2, usage: { inputTokens: 20, outputTokens: 10 } });
    expect(model.requests[1]?.messages.at(-1)?.content).toEqual(expect.stringContaining('could not be used'));
  });

  it('fails the judgement after two malformed replies instead of scoring 0 as the original did', async () => {
    const model = scriptedModel(['no idea', '{"verdict": "good"}']);
    const verdict = await createLlmJudge({ model }).judge({ task, response: 'x' });
    expect(verdict).toMatchObject({ ok: false, attempts: 2 });
    expect(verdict).not.toHaveProperty('soft');
    expect(model.requests).toHaveLength(2);
  });

  it('clamps an out-of-range score and says so, and cuts the reason to 200 characters', async () => {
    const model = scriptedModel([`{"score": 1.7, "reason": "${'y'.repeat(300)}"}`]);
    const verdict = await createLlmJudge({ model }).judge({ task, response: 'x' });
    expect(verdict).toMatchObject({ ok: true, soft: 1, hard: 1 });
    if (!verdict.ok) throw new Error('expected a verdict');
    expect(verdict.rationale.startsWith('y'.repeat(200))).toBe(true);
    expect(verdict.rationale).not.toContain('y'.repeat(201));
    expect(verdict.rationale).toContain('score 1.7 was outside 0..1');
  });
});
