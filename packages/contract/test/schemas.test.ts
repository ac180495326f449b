import {
  editSchema,
  generateRequestSchema,
  generateResultSchema,
  messageSchema,
  messageText,
  rolloutResultSchema,
  runEventSchema,
  taskItemSchema,
  addUsage,
  isScored,
  type RolloutResult,
} from '../src/index';

describe('messages', () => {
  it('accepts text, image, tool-call and tool-result parts in the right roles', () => {
    const conversation = [
      { role: 'system', content: 'You answer questions.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is on this page?' },
          { type: 'image', image: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'read', input: { path: 'a.txt' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call-1', toolName: 'read', output: 'hello' }] },
      { role: 'assistant', content: 'It says hello.' },
    ];
    for (const message of conversation) expect(messageSchema.parse(message)).toEqual(message);
  });

  it('rejects an image in an assistant message and a tool message without results', () => {
    expect(messageSchema.safeParse({ role: 'assistant', content: [{ type: 'image', image: 'x' }] }).success).toBe(false);
    expect(messageSchema.safeParse({ role: 'tool', content: [] }).success).toBe(false);
  });

  it('reads the text of a message and leaves other parts out', () => {
    const message = messageSchema.parse({
      role: 'user',
      content: [
        { type: 'text', text: 'first' },
        { type: 'image', image: 'https://example.invalid/a.png' },
        { type: 'text', text: 'second' },
      ],
    });
    expect(messageText(message)).toBe('first\nsecond');
  });
});

describe('generate requests and results', () => {
  it('requires a purpose on every call', () => {
    const messages = [{ role: 'user', content: 'hi' }];
    expect(generateRequestSchema.safeParse({ messages }).success).toBe(false);
    expect(generateRequestSchema.safeParse({ messages, purpose: 'rollout' }).success).toBe(true);
    expect(generateRequestSchema.safeParse({ messages, purpose: 'my-own-purpose' }).success).toBe(true);
  });

  it('accepts an AbortSignal and rejects anything else in its place', () => {
    const messages = [{ role: 'user', content: 'hi' }];
    expect(generateRequestSchema.safeParse({ messages, purpose: 'rollout', signal: new AbortController().signal }).success).toBe(true);
    expect(generateRequestSchema.safeParse({ messages, purpose: 'rollout', signal: 'stop' }).success).toBe(false);
  });

  it('rejects negative or fractional token counts', () => {
    const result = { text: 'ok', usage: { inputTokens: 10, outputTokens: 2 }, finishReason: 'stop' };
    expect(generateResultSchema.safeParse(result).success).toBe(true);
    expect(generateResultSchema.safeParse({ ...result, usage: { inputTokens: -1, outputTokens: 2 } }).success).toBe(false);
    expect(generateResultSchema.safeParse({ ...result, usage: { inputTokens: 1.5, outputTokens: 2 } }).success).toBe(false);
  });
});

describe('usage', () => {
  it('adds usages and keeps the estimated mark', () => {
    expect(
      addUsage(
        { inputTokens: 10, outputTokens: 5, cachedInputTokens: 4 },
        { inputTokens: 1, outputTokens: 1, estimated: true },
        { inputTokens: 2, outputTokens: 3, reasoningTokens: 2, cachedInputTokens: 1 },
      ),
    ).toEqual({ inputTokens: 13, outputTokens: 9, cachedInputTokens: 5, reasoningTokens: 2, estimated: true });
    expect(addUsage()).toEqual({ inputTokens: 0, outputTokens: 0 });
  });
});

describe('task items', () => {
  it("keeps an env's own fields and requires id and taskType", () => {
    const item = { id: 'q1', taskType: 'factoid', question: 'Capital of France?', references: ['Paris'], documentPath: 'docs/1.json' };
    expect(taskItemSchema.parse(item)).toEqual(item);
    expect(taskItemSchema.safeParse({ id: '', taskType: 'factoid' }).success).toBe(false);
    expect(taskItemSchema.safeParse({ id: 'q1' }).success).toBe(false);
  });
});

describe('rollout results', () => {
  const scored = { id: 'q1', taskType: 'factoid', status: 'scored', hard: 1, soft: 0.8, prediction: 'Paris' };
  const errored = {
    id: 'q2',
    taskType: 'factoid',
    status: 'errored',
    error: { code: 'provider-timeout', message: 'no reply in 60 s', retryable: true },
  };

  it('keeps an infrastructure error apart from the scores', () => {
    const results: RolloutResult[] = [rolloutResultSchema.parse(scored), rolloutResultSchema.parse(errored)];
    expect(results.filter(isScored).map((result) => result.id)).toEqual(['q1']);
    // An errored result cannot carry a score, so it can never be averaged in as a 0.
    expect(rolloutResultSchema.safeParse({ ...errored, hard: 0, soft: 0 }).success).toBe(false);
    expect(rolloutResultSchema.safeParse({ ...scored, error: errored.error }).success).toBe(false);
  });

  it('rejects scores outside 0..1 and a scored result without a prediction', () => {
    expect(rolloutResultSchema.safeParse({ ...scored, hard: 2 }).success).toBe(false);
    expect(rolloutResultSchema.safeParse({ ...scored, soft: -0.1 }).success).toBe(false);
    const { prediction: _prediction, ...withoutPrediction } = scored;
    expect(rolloutResultSchema.safeParse(withoutPrediction).success).toBe(false);
  });
});

describe('edits', () => {
  it('reads `add` as append and fills in rationale and support', () => {
    expect(editSchema.parse({ op: 'add', content: '- Answer with digits.' })).toEqual({
      op: 'append',
      content: '- Answer with digits.',
      rationale: '',
      support: 0,
    });
  });

  it('requires a target for anchored operations and content for all but delete', () => {
    expect(editSchema.safeParse({ op: 'replace', content: 'x' }).success).toBe(false);
    expect(editSchema.safeParse({ op: 'insert_after', target: '## Rules' }).success).toBe(false);
    expect(editSchema.safeParse({ op: 'delete', target: '- old rule' }).success).toBe(true);
    expect(editSchema.safeParse({ op: 'rewrite', content: 'x' }).success).toBe(false);
  });
});

describe('run events', () => {
  const base = { runId: 'run-1', timestamp: '2026-11-29T08:00:00.000Z' };

  it('accepts a gate decision and rejects an unknown event type', () => {
    const event = {
      type: 'gate-decided',
      ...base,
      epoch: 1,
      step: 2,
      globalStep: 2,
      accepted: false,
      strategy: 'strict',
      reason: 'candidate 0.60 is not above incumbent 0.65',
      candidateScore: 0.6,
      incumbentScore: 0.65,
    };
    expect(runEventSchema.parse(event)).toEqual(event);
    expect(runEventSchema.safeParse({ ...event, type: 'gate-decision' }).success).toBe(false);
  });

  it('requires a skill hash of 16 hex characters and an ISO timestamp', () => {
    const event = {
      type: 'item-rolled-out',
      ...base,
      phase: 'selection',
      skillHash: 'e3b0c44298fc1c14',
      itemId: 'q1',
      sampleIndex: 0,
      hard: 1,
      soft: 1,
      cached: false,
      completed: 1,
      total: 10,
    };
    expect(runEventSchema.safeParse(event).success).toBe(true);
    expect(runEventSchema.safeParse({ ...event, skillHash: 'E3B0' }).success).toBe(false);
    expect(runEventSchema.safeParse({ ...event, timestamp: 'yesterday' }).success).toBe(false);
  });

  it('keeps an unknown cost as null rather than a guess', () => {
    const event = {
      type: 'usage-recorded',
      ...base,
      role: 'target',
      purpose: 'rollout',
      provider: 'openai',
      modelId: 'some-new-model',
      usage: { inputTokens: 100, outputTokens: 10 },
      costUsd: null,
      cacheHit: false,
      latencyMs: 120,
    };
    expect(runEventSchema.parse(event)).toMatchObject({ costUsd: null });
  });
});
