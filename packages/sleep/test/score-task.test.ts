import { taskRecord } from './task-records.js';
import type { LlmJudge } from '../src/judge/llm-judge';
import { scoreTask } from '../src/judge/score-task';
import { exactScore, keywordSoftScore, normalizeForScoring } from '../src/judge/text-scores';
import type { TaskRecord } from '../src/tasks/task-record';

const base: TaskRecord = taskRecord({ id: 'task_1', intent: 'add the login form', outcome: 'success' });

describe('text scores', () => {
  it('normalises case, punctuation and white space, Unicode-aware', () => {
    expect(normalizeForScoring('  Hello,   Wörld!\n')).toBe('hello wörld');
    expect(normalizeForScoring('ＡＢＣ１２３')).toBe('abc123');
    expect(normalizeForScoring('हिन्दी-भाषा')).toBe('हिन्दी भाषा');
  });
  it('matches an exact reference inside the answer', () => {
    expect(exactScore('arXiv:1706.03762', 'the id is arXiv:1706.03762 ok')).toBe(1);
    expect(exactScore('arXiv:1706.03762', 'approximately arXiv:1706.037')).toBe(0);
    expect(exactScore('  !! ', 'anything')).toBe(0);
  });
  it('scores the share of reference keywords present', () => {
    expect(keywordSoftScore('add login form', 'please add the login form')).toBeGreaterThan(0.5);
    expect(keywordSoftScore('a an', 'a an')).toBe(0);
  });
});

describe('scoreTask', () => {
  it('scores a rule task by its checks, reading only the tools really called', async () => {
    const task: TaskRecord = { ...base, referenceKind: 'rule', judge: { kind: 'rule', checks: [{ op: 'tool_called', arg: 'search' }] } };
    expect(await scoreTask(task, 'TOOL_CALL: search', { toolsCalled: [] })).toMatchObject({ status: 'scored', method: 'rule', hard: 0 });
    expect(await scoreTask(task, '', { toolsCalled: ['search'] })).toMatchObject({ status: 'scored', hard: 1, soft: 1 });
  });
  it('leaves a tool check unjudged when the target does not report its tools, and judges the other checks', async () => {
    const task: TaskRecord = { ...base, referenceKind: 'rule', judge: { kind: 'rule', checks: [{ op: 'tool_called', arg: 'search' }] } };
    expect(await scoreTask(task, 'I searched.', { toolsCalled: undefined })).toMatchObject({ status: 'unjudged', reason: expect.stringContaining('tool') });
    const textOnly: TaskRecord = { ...base, referenceKind: 'rule', judge: { kind: 'rule', checks: [{ op: 'contains', arg: 'arXiv:' }] } };
    expect(await scoreTask(textOnly, 'arXiv:1706.03762', { toolsCalled: undefined })).toMatchObject({ status: 'scored', hard: 1 });
  });
  it('leaves a rule task without checks unjudged', async () => {
    expect(await scoreTask({ ...base, referenceKind: 'rule' }, 'x', { toolsCalled: [] })).toMatchObject({ status: 'unjudged' });
  });
  it('scores an exact task, soft never below hard', async () => {
    const task: TaskRecord = { ...base, referenceKind: 'exact', reference: 'login form added' };
    expect(await scoreTask(task, 'Login form added.', { toolsCalled: [] })).toMatchObject({ status: 'scored', method: 'exact', hard: 1, soft: 1 });
    const partial = await scoreTask(task, 'the login is done', { toolsCalled: [] });
    expect(partial).toMatchObject({ hard: 0 });
    expect(partial.status === 'scored' && partial.soft).toBeCloseTo(1 / 3);
  });
  it('scores a rubric by keywords without an LLM judge, passing at 0.8', async () => {
    const task: TaskRecord = { ...base, referenceKind: 'rubric', reference: 'mentions tests, types and lint' };
    expect(await scoreTask(task, 'tests, types and lint all pass; it mentions each', { toolsCalled: [] })).toMatchObject({
      method: 'rubric-keywords',
      hard: 1,
      soft: 1,
    });
    expect(await scoreTask(task, 'tests pass', { toolsCalled: [] })).toMatchObject({ hard: 0 });
  });
  it('uses the LLM judge for a rubric when there is one, and reports its failure as no score', async () => {
    const task: TaskRecord = { ...base, referenceKind: 'rubric', reference: 'r' };
    const judging = (ok: boolean): LlmJudge => ({
      judge: async () =>
        ok
          ? { ok: true, hard: 0, soft: 0.6, rationale: 'partly', attempts: 1, usage: { inputTokens: 1, outputTokens: 1 } }
          : { ok: false, reason: 'no usable reply', attempts: 2, usage: { inputTokens: 2, outputTokens: 2 } },
    });
    expect(await scoreTask(task, 'x', { toolsCalled: [], llmJudge: judging(true) })).toMatchObject({ status: 'scored', method: 'rubric-llm', soft: 0.6 });
    expect(await scoreTask(task, 'x', { toolsCalled: [], llmJudge: judging(false) })).toEqual({ status: 'judge-failed', reason: 'no usable reply' });
  });
  it('does not make up a score for a task with no reference, where the original used the session outcome', async () => {
    expect(await scoreTask(base, 'anything', { toolsCalled: [] })).toMatchObject({ status: 'unjudged' });
  });
});
