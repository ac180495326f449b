import { scriptedModel } from './scripted-model.js';
import type { HarvestedSession } from '../src/harvest/session-record.js';
import { createLlmMiner } from '../src/mine/llm-miner.js';

function session(sessionId: string, prompt: string): HarvestedSession {
  return {
    format: 'skillopt.sleep.session.v1',
    source: 'codex',
    sessionId,
    project: '/work/app',
    startedAt: '',
    endedAt: '',
    task: prompt,
    turns: [
      { role: 'user', text: prompt },
      { role: 'assistant', text: 'done' },
    ],
    toolCalls: [],
    skillsUsed: [],
    filesTouched: [],
    outcomeSignals: [],
    userTurnCount: 1,
    assistantTurnCount: 1,
    location: '',
  };
}

describe('createLlmMiner', () => {
  it('asks with purpose mine and reads the array out of prose with a second JSON block (balanced, §9 item 11)', async () => {
    const model = scriptedModel([
      'Here: [{"intent": "summarise the release notes", "rubric": "Names every breaking change.", "satisfied": true}] and also {"note": 1}',
    ]);
    const { tasks, failures } = await createLlmMiner({ model, maxSessions: 5, maxTasks: 5 })([session('s1', 'write release notes')]);
    expect(failures).toEqual([]);
    expect(model.requests[0]).toMatchObject({ purpose: 'mine', maxOutputTokens: 800 });
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ referenceKind: 'rubric', reference: 'Names every breaking change.', outcome: 'success', tags: ['mined:llm'] });
    expect(tasks[0]?.id).toMatch(/^llm_[0-9a-f]{12}$/);
    expect(tasks[0]?.judge).toBeUndefined();
  });

  it('cleans checks the way the original did and drops uncheckable or short candidates', async () => {
    const reply = JSON.stringify([
      {
        intent: 'list the open risks',
        checks: [
          { op: 'contains', arg: '  Risks ' },
          { op: 'regex', arg: ' \\d+ ' },
          { op: 'max_chars', arg: ' 500 ' },
          { op: 'min_chars', arg: -1 },
          { op: 'no_refusal', arg: 'x' },
          { op: 'contains', arg: 3 },
          { op: 'invented', arg: 'x' },
        ],
      },
      { intent: 'short', rubric: 'fine' },
      { intent: 'a task with nothing to judge by', checks: [{ op: 'contains', arg: '  ' }] },
      { intent: 'a fourth candidate is never read', rubric: 'ignored' },
    ]);
    const { tasks } = await createLlmMiner({ model: scriptedModel([reply]), maxSessions: 5, maxTasks: 5 })([session('s1', 'what are the risks')]);
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ referenceKind: 'rule', outcome: 'fail', reference: '' });
    expect(tasks[0]?.judge).toEqual({
      kind: 'rule',
      checks: [
        { op: 'contains', arg: 'Risks' },
        { op: 'regex', arg: ' \\d+ ' },
        { op: 'max_chars', arg: 500 },
        { op: 'no_refusal', arg: null },
      ],
    });
  });

  it('re-asks a malformed reply once, then reports the session as failed instead of empty', async () => {
    const model = scriptedModel(['no json here', 'still none', '[{"intent": "second session task", "rubric": "ok"}]']);
    const { tasks, failures } = await createLlmMiner({ model, maxSessions: 5, maxTasks: 5 })([session('s1', 'first session'), session('s2', 'second session')]);
    expect(model.requests).toHaveLength(3);
    expect(model.requests[1]?.messages).toHaveLength(3);
    expect(failures).toEqual([{ sessionId: 's1', reason: expect.stringContaining('no usable reply after 2 attempts') }]);
    expect(tasks.map((task) => task.sourceSessions)).toEqual([['s2']]);
  });

  it('stops at maxSessions and maxTasks', async () => {
    const model = scriptedModel(['[{"intent": "task number one", "rubric": "a"}, {"intent": "task number two", "rubric": "b"}]']);
    const { tasks } = await createLlmMiner({ model, maxSessions: 1, maxTasks: 1 })([session('s1', 'one'), session('s2', 'two')]);
    expect(tasks.map((task) => task.intent)).toEqual(['task number one']);
    expect(model.requests).toHaveLength(1);
  });
});
