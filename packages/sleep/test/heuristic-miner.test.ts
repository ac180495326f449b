import { createHash } from 'node:crypto';
import type { HarvestedSession, OutcomeSignal } from '../src/harvest/session-record.js';
import { heuristicMine } from '../src/mine/heuristic-miner.js';
import { deduplicateTasks } from '../src/mine/task-deduplication.js';

function session(prompts: string[], overrides: Partial<HarvestedSession> = {}): HarvestedSession {
  const turns = prompts.flatMap((text, index) => [
    { role: 'user' as const, text },
    { role: 'assistant' as const, text: `reply ${index}` },
  ]);
  return {
    format: 'skillopt.sleep.session.v1',
    source: 'claude-code',
    sessionId: 's1',
    project: '/work/app',
    startedAt: '2026-01-01T00:00:00Z',
    endedAt: '2026-01-01T00:10:00Z',
    task: prompts[0] ?? '',
    turns,
    toolCalls: [],
    skillsUsed: [],
    filesTouched: [],
    outcomeSignals: [],
    userTurnCount: prompts.length,
    assistantTurnCount: prompts.length,
    location: '/tmp/s1.jsonl',
    ...overrides,
  };
}

const feedback = (polarity: 'positive' | 'negative'): OutcomeSignal => ({ kind: 'user-feedback', polarity, phrase: 'x', turn: 1 });

describe('heuristicMine', () => {
  it('makes one task per session with the id, context, tags and hint the spec describes', () => {
    const first = 'fix the flaky login test';
    const [mined] = heuristicMine(
      [
        session([first, 'still failing', 'try again', 'and again', 'fifth prompt'], {
          gitBranch: 'main',
          toolCalls: [{ name: 'Read' }, { name: 'Edit' }, { name: 'Read' }, { name: 'Bash' }, { name: 'Grep' }, { name: 'Skill' }],
          skillsUsed: ['testing'],
        }),
      ],
      { maxTasks: 10 },
    );
    const expectedId = `task_${createHash('sha256').update(`/work/app::${first}`).digest('hex').slice(0, 12)}`;
    expect(mined).toMatchObject({
      id: expectedId,
      intent: first,
      contextExcerpt: 'The developer followed up with:\n- still failing\n- try again\n- and again',
      attemptedSolution: 'reply 4',
      outcome: 'mixed',
      referenceKind: 'none',
      tags: ['tools:Read+Edit+Bash+Grep', 'branch:main'],
      sourceSessions: ['s1'],
      skillHint: 'testing',
      split: 'train',
      origin: 'real',
    });
  });

  it('skips sessions whose first prompt is too short and stops at maxTasks', () => {
    const sessions = [session(['hi']), session(['first real task']), session(['second real task'])];
    expect(heuristicMine(sessions, { maxTasks: 1 }).map((task) => task.intent)).toEqual(['first real task']);
  });

  it('cuts a long intent to 800 characters with a marker', () => {
    const [mined] = heuristicMine([session(['x'.repeat(900)])], { maxTasks: 1 });
    expect(mined?.intent).toBe(`${'x'.repeat(800)} …`);
  });

  it.each([
    [[feedback('positive')], 'success'],
    [[feedback('positive'), feedback('negative')], 'fail'],
    [[{ kind: 'turn-error', detail: 'boom' }], 'fail'],
    [[], 'unknown'],
  ] as Array<[OutcomeSignal[], string]>)('reads the outcome from signals %p', (outcomeSignals, outcome) => {
    expect(heuristicMine([session(['a task to mine'], { outcomeSignals })], { maxTasks: 1 })[0]?.outcome).toBe(outcome);
  });

  it('counts only the last test result: a red run the agent fixed is a success (our addition)', () => {
    const outcomeSignals: OutcomeSignal[] = [
      { kind: 'verification', verifier: 'tests', passed: false, evidence: '1 failed' },
      { kind: 'verification', verifier: 'tests', passed: true, evidence: 'all passed' },
    ];
    expect(heuristicMine([session(['a task to mine'], { outcomeSignals })], { maxTasks: 1 })[0]?.outcome).toBe('success');
  });

  it('gives no skill hint when a session used several skills', () => {
    expect(heuristicMine([session(['a task to mine'], { skillsUsed: ['a', 'b'] })], { maxTasks: 1 })[0]?.skillHint).toBe('');
  });
});

describe('deduplicateTasks', () => {
  it('merges by id: first record wins, sessions are added once, the best outcome and a single hint are kept', () => {
    const [first] = heuristicMine([session(['a task to mine'], { sessionId: 's1', skillsUsed: ['git'] })], { maxTasks: 1 });
    const [second] = heuristicMine([session(['a task to mine'], { sessionId: 's2', outcomeSignals: [feedback('positive')] })], { maxTasks: 1 });
    const [third] = heuristicMine([session(['a task to mine'], { sessionId: 's1', skillsUsed: ['git'] })], { maxTasks: 1 });
    if (first === undefined || second === undefined || third === undefined) throw new Error('expected three tasks');
    const merged = deduplicateTasks([first, second, third]);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ sourceSessions: ['s1', 's2'], outcome: 'success', skillHint: 'git' });
    expect(first.sourceSessions).toEqual(['s1']);
  });

  it('drops the hint when duplicates name different skills', () => {
    const mined = heuristicMine([session(['a task to mine'], { skillsUsed: ['a'] }), session(['a task to mine'], { skillsUsed: ['b'] })], { maxTasks: 2 });
    expect(deduplicateTasks(mined)[0]?.skillHint).toBe('');
  });
});
