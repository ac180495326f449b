import path from 'node:path';
import { ERROR_CODES, messageText, ProviderError, rolloutResultSchema, type GenerateRequest, type RolloutResult, type ScoredRollout } from '@skillopt/contract';
import { createRetryableProviderErrorForTests, createScriptedChatModel, createStallingTarget } from '@skillopt/env-kit/testing';
import { createEnvironment, OFFICEQA_TOOL_NAMES, TASK_INSTRUCTIONS, type OfficeQaTaskItem } from '../src/index';
import { contextFor, FIXTURE_CONFIG, lastToolResults, temporaryDirectory, toolReply, writeText } from './helpers';

function scored(result: RolloutResult): ScoredRollout {
  if (result.status !== 'scored') throw new Error(`expected a scored result, got ${JSON.stringify(result)}`);
  return result;
}

const environment = createEnvironment(FIXTURE_CONFIG);
const BUDGET = 'harbor_point_budget_fy2023.txt';

async function item(id: string): Promise<OfficeQaTaskItem> {
  for (const split of ['train', 'val', 'test'] as const) {
    const found = (await environment.loadSplit(split)).find((candidate) => candidate.id === id);
    if (found) return found as OfficeQaTaskItem;
  }
  throw new Error(`no item ${id}`);
}

describe('the tool loop', () => {
  it('runs grep, then read, then scores the answer; every call is a rollout call with the tools', async () => {
    const fire = await item('fixture-train-01');
    const model = createScriptedChatModel({
      reply: [
        toolReply([{ toolName: 'grep', input: { pattern: '^\\| Fire' } }], 'Looking for the Fire row.'),
        toolReply([{ toolName: 'read', input: { path: BUDGET, offset: 20, limit: 4 } }]),
        'The FY2023 Adopted column for Fire says 32,118.\n<answer>32,118</answer>',
      ],
    });
    const result = scored(await environment.rollout(fire, contextFor({ kind: 'chat', model })));
    expect(rolloutResultSchema.safeParse(result).success).toBe(true);
    expect(result).toMatchObject({ id: 'fixture-train-01', taskType: 'easy', hard: 1, soft: 1, prediction: '32,118', reference: '32,118' });
    expect(result.details).toMatchObject({
      modelCalls: 3,
      toolCalls: 2,
      toolErrors: 0,
      em: 1,
      f1: 1,
      answerSource: 'tag',
      turnLimitReached: false,
      files: [BUDGET],
    });
    expect(result.usage).toMatchObject({ inputTokens: expect.any(Number), outputTokens: expect.any(Number) });
    expect(result.usage!.outputTokens).toBeGreaterThanOrEqual(10);

    expect(model.calls).toHaveLength(3);
    for (const request of model.calls) {
      expect(request.purpose).toBe('rollout');
      expect(request.maxOutputTokens).toBe(16384);
      expect(request.tools?.map((tool) => tool.name)).toEqual(OFFICEQA_TOOL_NAMES);
    }
    // Second call: system, user, the assistant's tool call, the tool result.
    const second = model.calls[1]!;
    expect(second.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    const assistant = second.messages[2]!;
    expect(assistant.content).toEqual([
      { type: 'text', text: 'Looking for the Fire row.' },
      { type: 'tool-call', toolCallId: expect.any(String), toolName: 'grep', input: { pattern: '^\\| Fire' } },
    ]);
    const [grepResult] = lastToolResults(second);
    expect(grepResult).toEqual({
      toolName: 'grep',
      output: expect.stringMatching(/^harbor_point_budget_fy2023\.txt:\d+: \| Fire \| 31,440 \| 32,118 \| 678 \|$/),
    });
    const third = model.calls[2]!;
    expect(third.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(lastToolResults(third)[0]!.output).toMatch(/^\[harbor_point_budget_fy2023\.txt: lines 20-23 of \d+\]\n20: /);
    // The tool-call ids of the assistant message and of the tool result agree.
    const callPart = (assistant.content as Array<{ type: string; toolCallId?: string }>).find((part) => part.type === 'tool-call');
    const resultPart = second.messages[3]!.content as Array<{ toolCallId: string }>;
    expect(resultPart[0]!.toolCallId).toBe(callPart!.toolCallId);

    // The trajectory: every turn, tool calls and shortened results, then the evaluation.
    const turns = result.trajectory!.turns;
    expect(turns.map((turn) => turn.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'environment']);
    expect(turns[1]).toEqual({ role: 'assistant', toolName: 'grep', content: 'Looking for the Fire row.\n[tool call] grep({"pattern":"^\\\\| Fire"})' });
    expect(turns[2]).toMatchObject({ role: 'tool', toolName: 'grep', content: expect.stringContaining('| Fire | 31,440 | 32,118 | 678 |') });
    expect(turns[5]!.content).toContain('<answer>32,118</answer>');
    expect(turns[6]!.content).toContain('Verdict: correct');
    expect(result.trajectory!.failureReason).toBeUndefined();
    expect(JSON.stringify(result.trajectory)).not.toContain('Rule 7');
  });

  it('puts the skill under # Skill, the question, the documents and the hints in the prompt, never the gold answer', async () => {
    const two = await item('fixture-test-01');
    const model = createScriptedChatModel({ reply: ['<answer>1</answer>'] });
    await environment.rollout(two, contextFor({ kind: 'chat', model }));
    const [system, user] = model.calls[0]!.messages;
    expect(messageText(system!)).toBe(`# Skill\n\n# My skill\n\nRule 7: check the unit.\n\n# Task\n\n${TASK_INSTRUCTIONS}`);
    const userText = messageText(user!);
    expect(userText).toContain(`## Question\n\n${two.question}`);
    expect(userText).toContain('## Documents\n\n- harbor_point_budget_fy2023.txt\n- greenleaf_coop_report_2022.txt');
    expect(userText).toContain('## Source hints');
    expect(userText).not.toContain('101,977');
    expect(messageText(system!)).not.toContain('101,977');

    const blank = createScriptedChatModel({ reply: ['<answer>1</answer>'] });
    await environment.rollout(two, contextFor({ kind: 'chat', model: blank }, undefined, ' \n'));
    expect(messageText(blank.calls[0]!.messages[0]!)).toBe(TASK_INSTRUCTIONS);
  });

  it('runs several tool calls of one reply in order, answering each under its id', async () => {
    const model = createScriptedChatModel({
      reply: [
        toolReply([
          { toolCallId: 'a', toolName: 'glob', input: { pattern: '*' } },
          { toolCallId: 'b', toolName: 'grep', input: { pattern: 'Europe' } },
        ]),
        '<answer>168</answer>',
      ],
    });
    const result = scored(await environment.rollout(await item('fixture-val-01'), contextFor({ kind: 'chat', model })));
    expect(result.hard).toBe(1);
    const tool = model.calls[1]!.messages[3]!;
    expect(tool).toEqual({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'a', toolName: 'glob', output: 'northwind_memo_2024_03.txt' },
        { type: 'tool-result', toolCallId: 'b', toolName: 'grep', output: expect.stringContaining('| Europe | 168 | 402,750 |') },
      ],
    });
  });

  it('answers escape attempts and unknown tools with error results and carries on', async () => {
    const model = createScriptedChatModel({
      reply: [
        toolReply([
          { toolName: 'read', input: { path: '../../../../../../etc/passwd' } },
          { toolName: 'read', input: { path: '/etc/passwd' } },
          { toolName: 'grep', input: { pattern: 'root', path: '/etc/*' } },
          { toolName: 'glob', input: { pattern: '../*' } },
          { toolName: 'shell', input: { command: 'cat /etc/passwd' } },
          { toolName: 'read', input: { path: path.join(FIXTURE_CONFIG.data_dirs[0]!, 'transformed', 'greenleaf_coop_report_2022.txt') } },
        ]),
        '<answer>Tomas Okafor</answer>',
      ],
    });
    const result = scored(await environment.rollout(await item('fixture-val-03'), contextFor({ kind: 'chat', model })));
    expect(result.hard).toBe(1);
    expect(result.details).toMatchObject({ toolCalls: 6, toolErrors: 6 });
    const results = lastToolResults(model.calls[1]!);
    expect(results.map((entry) => entry.isError)).toEqual([true, true, true, true, true, true]);
    for (const entry of results) {
      expect(entry.output).not.toMatch(/root:/);
      // Refusals may quote the model's own request back, but never a document's content.
      expect(entry.output).not.toContain('re-elected');
    }
    expect(result.trajectory!.turns.filter((turn) => turn.role === 'tool').every((turn) => turn.content.startsWith('[error] '))).toBe(true);
  });

  it('fails the item with "turn limit reached" (scored 0, not an error) when the model never stops calling tools', async () => {
    const limited = createEnvironment({ ...FIXTURE_CONFIG, max_tool_turns: 3 });
    const model = createScriptedChatModel({ reply: () => toolReply([{ toolName: 'glob', input: { pattern: '*' } }]) });
    const result = scored(await limited.rollout(await item('fixture-train-06'), contextFor({ kind: 'chat', model })));
    expect(model.calls).toHaveLength(3);
    expect(result).toMatchObject({ hard: 0, soft: 0, prediction: '' });
    expect(result.trajectory!.failureReason).toMatch(/^turn limit reached: .*after 3 model calls \(max_tool_turns 3\)/);
    expect(result.details).toMatchObject({ modelCalls: 3, toolCalls: 2, turnLimitReached: true });
    expect(result.trajectory!.turns.at(-1)).toMatchObject({ role: 'environment', content: expect.stringContaining('turn limit reached') });
    expect(rolloutResultSchema.safeParse(result).success).toBe(true);
  });

  it('scores a reply without a tag from its last line, and explains a wrong answer', async () => {
    const model = createScriptedChatModel({ reply: ['I found it.\n17,600 thousand dollars'] });
    const result = scored(await environment.rollout(await item('fixture-train-06'), contextFor({ kind: 'chat', model })));
    expect(result).toMatchObject({ hard: 0, prediction: '17,600 thousand dollars' });
    expect(result.soft).toBeCloseTo(2 / 3, 10);
    expect(result.trajectory!.failureReason).toBe(
      'no <answer> tag, so the last line of the reply was scored instead; the answer holds the reference plus 1 extra word; put only the value inside the tag',
    );
    expect(result.trajectory!.turns.at(-1)!.content).toContain(
      'Extracted answer: "17,600 thousand dollars" (no <answer> tag found; taken from the last non-empty line)',
    );
  });

  it('keeps long tool results whole for the model but short in the trajectory', async () => {
    const model = createScriptedChatModel({
      reply: [toolReply([{ toolName: 'read', input: { path: 'fiscal_bulletin_1977_03.txt' } }]), '<answer>647.4</answer>'],
    });
    const result = scored(await environment.rollout(await item('fixture-val-02'), contextFor({ kind: 'chat', model })));
    const full = lastToolResults(model.calls[1]!)[0]!.output;
    expect(full).toContain('| February 1977 | 427.8 | 219.6 | 647.4 |');
    const shortened = result.trajectory!.turns.find((turn) => turn.role === 'tool')!.content;
    expect(shortened.length).toBeLessThan(full.length);
    expect(shortened).toMatch(/\[\.\.\. \d+ more characters\]$/);
  });
});

describe('failures that are not scores', () => {
  it('lets a provider error propagate, on the first call and in the middle of the loop', async () => {
    const failure = createRetryableProviderErrorForTests();
    const first = createScriptedChatModel({
      reply: () => {
        throw failure;
      },
    });
    await expect(environment.rollout(await item('fixture-train-01'), contextFor({ kind: 'chat', model: first }))).rejects.toBe(failure);
    const later = createScriptedChatModel({
      reply: (_request: GenerateRequest, index: number) => {
        if (index === 0) return toolReply([{ toolName: 'glob', input: { pattern: '*' } }]);
        throw failure;
      },
    });
    await expect(environment.rollout(await item('fixture-train-01'), contextFor({ kind: 'chat', model: later }))).rejects.toBe(failure);
    expect(later.calls).toHaveLength(2);
  });

  it('rejects at once, without calling the target, when the signal is already aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('run stopped');
    controller.abort(reason);
    const model = createScriptedChatModel({ reply: ['<answer>x</answer>'] });
    await expect(environment.rollout(await item('fixture-train-01'), contextFor({ kind: 'chat', model }, controller.signal))).rejects.toBe(reason);
    expect(model.calls).toHaveLength(0);
  });

  it('rejects with the abort reason when aborted during a call, and passes a signal to the model', async () => {
    const stalling = createStallingTarget('chat');
    const controller = new AbortController();
    const pending = environment.rollout(await item('fixture-train-01'), contextFor(stalling.target, controller.signal));
    await stalling.called;
    const reason = new Error('stop now');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    stalling.release();
  });

  it('abandons the item after exec_timeout with a retryable provider-timeout, even mid-loop', async () => {
    // A limit of a dozen 40 ms calls: a machine whose event loop lags by a few hundred ms still
    // makes two of them within it, and none makes all 24 of max_tool_turns.
    const slow = createEnvironment({ ...FIXTURE_CONFIG, exec_timeout: 0.5 });
    const stalling = createStallingTarget('chat');
    const stalled = await slow.rollout(await item('fixture-train-01'), contextFor(stalling.target)).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(stalled)).toBe(true);
    expect(stalled).toMatchObject({ code: ERROR_CODES.providerTimeout, retryable: true, provider: 'test-double' });
    stalling.release();

    // Each call is quick, but the loop as a whole runs past the limit.
    const busy = createScriptedChatModel({
      reply: async () => {
        await new Promise((resolve) => setTimeout(resolve, 40));
        return toolReply([{ toolName: 'glob', input: { pattern: '*' } }]);
      },
    });
    const looped = await slow.rollout(await item('fixture-train-01'), contextFor({ kind: 'chat', model: busy })).catch((caught: unknown) => caught);
    expect(looped).toMatchObject({ code: ERROR_CODES.providerTimeout, retryable: true });
    expect(busy.calls.length).toBeGreaterThan(1);
    expect(busy.calls.length).toBeLessThan(24);
  });

  it('reports a document missing from the corpus as a data error before calling the model', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      await writeText(path.join(dir, 'present.txt'), 'x');
      const missing = createEnvironment({ split_dir: FIXTURE_CONFIG.split_dir, corpus_dir: dir });
      const model = createScriptedChatModel({ reply: ['<answer>x</answer>'] });
      await expect(missing.rollout(await item('fixture-train-01'), contextFor({ kind: 'chat', model }))).rejects.toMatchObject({
        code: ERROR_CODES.dataInvalid,
        message: expect.stringContaining('harbor_point_budget_fy2023.txt not found'),
      });
      expect(model.calls).toHaveLength(0);
    } finally {
      await cleanup();
    }
  });
});
