import { createBackend } from '@skillopt/backends-sim';
import type { ChatModel, GenerateRequest } from '@skillopt/contract';
import type { HarvestedSession } from '../src/harvest/session-record.js';
import { createLlmJudge } from '../src/judge/llm-judge.js';
import { createLlmMiner } from '../src/mine/llm-miner.js';
import { replayMessages } from '../src/night/replay-prompt.js';
import type { TaskRecord } from '../src/tasks/task-record.js';

/** The simulated model, recording the stage it recognised in each call it answered. */
function recordingSimulator(role: 'target' | 'optimizer') {
  const model = createBackend({}).createChatModel!({ role });
  const stages: unknown[] = [];
  const recording: ChatModel = {
    ...model,
    async generate(request: GenerateRequest) {
      const result = await model.generate(request);
      stages.push(result.providerMetadata?.stage);
      return result;
    },
  };
  return { model: recording, stages };
}

const session: HarvestedSession = {
  format: 'skillopt.sleep.session.v1',
  source: 'claude-code',
  sessionId: 's1',
  project: '/work/papers',
  startedAt: '2026-11-01T10:00:00Z',
  endedAt: '2026-11-01T10:05:00Z',
  task: 'What is the arXiv id of the Attention paper?',
  turns: [
    { role: 'user', text: 'What is the arXiv id of the Attention paper?' },
    { role: 'assistant', text: 'It is arXiv:1706.03762.' },
    { role: 'user', text: 'thanks, perfect' },
  ],
  toolCalls: [],
  skillsUsed: [],
  filesTouched: [],
  outcomeSignals: [{ kind: 'user-feedback', polarity: 'positive', phrase: 'perfect', turn: 2 }],
  userTurnCount: 2,
  assistantTurnCount: 1,
  location: '/tmp/s1.jsonl',
};

describe('the simulated model knows every Sleep prompt by its stage', () => {
  test('as a miner it turns a satisfied session into a task with a check on what was accepted', async () => {
    const { model, stages } = recordingSimulator('optimizer');
    const mining = await createLlmMiner({ model, maxSessions: 5, maxTasks: 5 })([session]);
    expect(stages).toEqual(['mine']);
    expect(mining.failures).toEqual([]);
    expect(mining.tasks).toHaveLength(1);
    expect(mining.tasks[0]).toMatchObject({
      intent: 'What is the arXiv id of the Attention paper?',
      referenceKind: 'rule',
    });
    expect(mining.tasks[0]?.judge?.checks).toEqual([
      { op: 'contains', arg: 'arXiv:1706.03762' },
      { op: 'no_refusal', arg: null },
    ]);
  });

  test('as a judge it grades an answer by the rubric', async () => {
    const { model, stages } = recordingSimulator('target');
    const judge = createLlmJudge({ model });
    const task = { intent: 'Summarise the release notes', reference: 'mentions the parser fix and the version 1.2.0' };
    const good = await judge.judge({ task, response: 'The parser fix ships in version 1.2.0; it mentions both.' });
    const poor = await judge.judge({ task, response: 'Nothing much changed.' });
    expect(stages).toEqual(['judge', 'judge']);
    expect(good).toMatchObject({ ok: true, hard: 1 });
    expect(poor).toMatchObject({ ok: true, hard: 0 });
  });

  test('as the replay target it answers the replay prompt', async () => {
    const { model, stages } = recordingSimulator('target');
    const task = { intent: 'What is the arXiv id of BERT?', contextExcerpt: '', system: '' } as TaskRecord;
    await model.generate({ messages: replayMessages(task, '# Skill\n'), purpose: 'replay' });
    expect(stages).toEqual(['replay']);
  });
});
