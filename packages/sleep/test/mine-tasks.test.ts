import type { HarvestedSession } from '../src/harvest/session-record.js';
import type { LlmMiner } from '../src/mine/llm-miner.js';
import { mineTasks } from '../src/mine/mine-tasks.js';

function session(sessionId: string, prompt: string): HarvestedSession {
  return {
    format: 'skillopt.sleep.session.v1',
    source: 'pi',
    sessionId,
    project: '/p',
    startedAt: '',
    endedAt: '',
    task: prompt,
    turns: [{ role: 'user', text: prompt }],
    toolCalls: [],
    skillsUsed: [],
    filesTouched: [],
    outcomeSignals: [],
    userTurnCount: 1,
    assistantTurnCount: 0,
    location: '',
  };
}

const sessions = [session('s1', 'the same request'), session('s2', 'the same request'), session('s3', 'another request'), session('s4', 'a third request')];

describe('mineTasks', () => {
  it('falls back to the heuristic miner, merges duplicates, cuts to maxTasks and splits', async () => {
    const emptyMiner: LlmMiner = async () => ({ tasks: [], failures: [{ sessionId: 's1', reason: 'unreadable' }] });
    const mined = await mineTasks(sessions, { maxTasks: 2, candidateLimit: 10, llmMiner: emptyMiner });
    expect(mined.miner).toBe('heuristic');
    expect(mined.failures).toEqual([{ sessionId: 's1', reason: 'unreadable' }]);
    expect(mined.tasks.map((task) => task.sourceSessions)).toEqual([['s1', 's2'], ['s3']]);
    expect(new Set(mined.tasks.map((task) => task.split))).toEqual(new Set(['train', 'val']));
  });

  it('applies the target filter before the cut', async () => {
    const mined = await mineTasks(sessions, {
      maxTasks: 5,
      candidateLimit: 10,
      targetFilter: (tasks) => tasks.filter((task) => task.intent.includes('third')),
    });
    expect(mined.tasks.map((task) => task.intent)).toEqual(['a third request']);
  });

  it('passes provider errors of the LLM miner on', async () => {
    const brokenMiner: LlmMiner = async () => {
      throw new Error('provider down');
    };
    await expect(mineTasks(sessions, { maxTasks: 5, candidateLimit: 10, llmMiner: brokenMiner })).rejects.toThrow('provider down');
  });
});
