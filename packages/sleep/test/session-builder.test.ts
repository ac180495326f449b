import { feedbackLexicon } from '../src/harvest/feedback-signals';
import { createSourceReportRecorder } from '../src/harvest/harvest-report';
import { OWN_SESSION_SENTINEL } from '../src/harvest/own-sessions';
import { projectScope } from '../src/harvest/project-scope';
import { createSessionBuilder, type SessionRules } from '../src/harvest/session-builder';
import { DEFAULT_TEXT_LIMITS } from '../src/harvest/text-limits';
import { ALL_TIME, createTimeWindow } from '../src/harvest/time-window';

function rules(overrides: Partial<SessionRules> = {}): SessionRules {
  return {
    scope: projectScope(['/home/user/project']),
    window: ALL_TIME,
    limits: DEFAULT_TEXT_LIMITS,
    lexicon: feedbackLexicon(),
    environment: {},
    knownSecrets: [],
    report: createSourceReportRecorder('claude-code'),
    ...overrides,
  };
}

describe('one session built into a record', () => {
  it('keeps prompts and the last reply of each exchange, tool names only, the first project, times in UTC', () => {
    const builder = createSessionBuilder('claude-code', 's1', '/tmp/s1.jsonl', rules());
    builder.project('/home/user/project');
    builder.project('/elsewhere');
    builder.branch('main');
    builder.userPrompt('/clear');
    builder.userPrompt('Fix the failing test', '2026-06-20T10:00:00Z');
    builder.assistantTurn('Looking.', '2026-06-20T10:00:01Z');
    builder.toolCall('Bash');
    builder.assistantTurn('Fixed: the date was parsed as local time.', '2026-06-20T10:00:05Z');
    builder.userPrompt('still broken', '2026-06-20T10:01:00+02:00');
    const session = builder.finish();
    expect(session).toMatchObject({
      source: 'claude-code',
      sessionId: 's1',
      project: '/home/user/project',
      gitBranch: 'main',
      task: 'Fix the failing test',
      startedAt: '2026-06-20T08:01:00.000Z',
      endedAt: '2026-06-20T10:00:05.000Z',
      userTurnCount: 3,
      assistantTurnCount: 2,
      toolCalls: [{ name: 'Bash', afterTurn: 0 }],
      location: '/tmp/s1.jsonl',
    });
    expect(session?.turns.map((turn) => `${turn.role}: ${turn.text}`)).toEqual([
      'user: Fix the failing test',
      'assistant: Fixed: the date was parsed as local time.',
      'user: still broken',
    ]);
    expect(session?.outcomeSignals).toEqual([{ kind: 'user-feedback', polarity: 'negative', phrase: 'still broken', turn: 3 }]);
  });

  it('cuts secrets out before clipping, so no part of a key survives a cut', () => {
    const limits = { ...DEFAULT_TEXT_LIMITS, maxTextCharacters: 60 };
    const builder = createSessionBuilder('claude-code', 's', 'f', rules({ limits, knownSecrets: ['hunter2-local'] }));
    builder.project('/home/user/project');
    builder.userPrompt(`deploy with sk-ABCDEFGHIJ1234567890 and token local-secret-9 and hunter2-local ${'x'.repeat(100)}`);
    builder.assistantTurn('-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\n-----END RSA PRIVATE KEY-----');
    const session = builder.finish(Date.UTC(2026, 0, 1));
    const text = JSON.stringify(session);
    expect(text).not.toMatch(/sk-ABCDEF|local-secret-9|hunter2-local|MIIEabc/);
    expect(session?.task).toMatch(/^deploy with \[redacted\] and token \[redacted\] and \[redacted\]/);
  });

  it('counts the reason when it skips: no prompt, our own session, a background agent, out of scope, out of window', () => {
    const report = createSourceReportRecorder('claude-code');
    const window = createTimeWindow({ explicitStart: Date.UTC(2026, 5, 1), projects: ['/home/user/project'] });
    const build = (prompt: string | undefined, project: string, time: string) => {
      const builder = createSessionBuilder('claude-code', 'x', 'f', rules({ report, window }));
      builder.project(project);
      if (prompt !== undefined) builder.userPrompt(prompt, time);
      builder.assistantTurn('ok', time);
      return builder.finish();
    };
    const june = '2026-06-20T10:00:00Z';
    expect(build(undefined, '/home/user/project', june)).toBeUndefined();
    expect(build(`${OWN_SESSION_SENTINEL}\nMine tonight's sessions`, '/home/user/project', june)).toBeUndefined();
    expect(build('You are a Claude-Mem, summarise', '/home/user/project', june)).toBeUndefined();
    expect(build('real work', '/home/user', june)).toBeUndefined();
    expect(build('real work', '/home/user/project', '2026-05-01T00:00:00Z')).toBeUndefined();
    expect(build('real work', '/home/user/project/sub', june)?.task).toBe('real work');
    expect(report.report.skipped).toMatchObject({ 'no-prompt': 1, 'own-session': 1, 'background-agent': 1, 'outside-scope': 1, 'outside-window': 1 });
    expect(report.report).toMatchObject({ sessions: 1, tasks: 1 });
  });

  it('rejects a whole session a source found malformed, and bounds what a long session keeps', () => {
    const report = createSourceReportRecorder('pi');
    const rejected = createSessionBuilder('pi', 'x', 'f', rules({ report }));
    rejected.project('/home/user/project');
    rejected.userPrompt('hello');
    rejected.reject('malformed');
    expect(rejected.finish()).toBeUndefined();
    expect(report.report.skipped.malformed).toBe(1);

    const limits = { ...DEFAULT_TEXT_LIMITS, maxUserTurns: 3, maxAssistantTurns: 2, maxToolCalls: 5 };
    const long = createSessionBuilder('pi', 'y', 'f', rules({ limits }));
    long.project('/home/user/project');
    for (let turn = 1; turn <= 50; turn += 1) {
      long.userPrompt(`prompt ${turn}`, Date.UTC(2026, 0, 1, 0, turn));
      long.assistantTurn(`reply ${turn}`);
      long.toolCall('read');
    }
    const session = long.finish();
    expect(session?.turns.filter((turn) => turn.role === 'user').map((turn) => turn.text)).toEqual(['prompt 1', 'prompt 2', 'prompt 3']);
    expect(session?.turns.filter((turn) => turn.role === 'assistant').map((turn) => turn.text)).toEqual(['reply 49', 'reply 50']);
    expect(session?.toolCalls).toHaveLength(5);
    expect(session).toMatchObject({ userTurnCount: 50, assistantTurnCount: 50 });
  });
});
