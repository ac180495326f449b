import {
  ERROR_CODES,
  messageText,
  ProviderError,
  rolloutResultSchema,
  type RolloutContext,
  type RolloutResult,
  type ScoredRollout,
  type Target,
} from '@skillopt/contract';
import {
  createFilelessRolloutContextForTests,
  createRetryableProviderErrorForTests,
  createScriptedAgentRunner,
  createScriptedChatModel,
  createStallingTarget,
  createWorkDirectoryRolloutContextsForTests,
} from '@skillopt/env-kit/testing';
import { AGENT_TASK_FILE } from '@skillopt/env-kit';
import { ANSWER_FORMAT_INSTRUCTION, buildUserPrompt, createEnvironment, truncateContext, type SearchQaTaskItem } from '../src/index';
import { FIXTURE_SPLIT_DIR } from './helpers';

const SKILL = '# My skill\n\nRule 7: double-check capitals.\n';

function contextFor(target: Target, signal: AbortSignal = new AbortController().signal): RolloutContext {
  return createFilelessRolloutContextForTests({ skill: SKILL, target, signal });
}

function scored(result: RolloutResult): ScoredRollout {
  if (result.status !== 'scored') throw new Error(`expected a scored result, got ${JSON.stringify(result)}`);
  return result;
}

const environment = createEnvironment({ split_dir: FIXTURE_SPLIT_DIR });

describe('rollout', () => {
  it('makes exactly one rollout call per item with the skill, the question and the snippets, never the gold answer', async () => {
    const items = [...(await environment.loadSplit('train')), ...(await environment.loadSplit('val')), ...(await environment.loadSplit('test'))];
    for (const item of items) {
      const model = createScriptedChatModel({ reply: ['<answer>something</answer>'] });
      await environment.rollout(item, contextFor({ kind: 'chat', model }));
      expect(model.calls).toHaveLength(1);
      const request = model.calls[0]!;
      expect(request.purpose).toBe('rollout');
      expect(request.maxOutputTokens).toBe(16384);
      const [system, user, ...rest] = request.messages;
      expect(rest).toHaveLength(0);
      expect(system?.role).toBe('system');
      expect(user?.role).toBe('user');
      const systemText = messageText(system!);
      const userText = messageText(user!);
      expect(systemText).toContain(SKILL.trim());
      expect(systemText).toContain(ANSWER_FORMAT_INSTRUCTION);
      expect(systemText).toContain('<answer></answer>');
      expect(userText).toContain(item.question!);
      expect(userText).toContain('## Search results');
      expect(userText).toContain('[DOC] [TLE]');
      // The fixture's snippets are written so that they may mention an answer (real snippets do),
      // but the gold list itself is never sent: check on a reference the snippets do not contain.
      for (const reference of item.references ?? []) {
        if (!(item.context as string).includes(reference)) expect(`${systemText}\n${userText}`).not.toContain(reference);
      }
    }
  });

  it('never puts the gold answers in a question-only prompt', async () => {
    const item: SearchQaTaskItem = { id: 'q1', taskType: 'qa', question: 'What is the capital of Australia?', references: ['Canberra', 'Canberra, ACT'] };
    const model = createScriptedChatModel({ reply: ['<answer>Canberra</answer>'] });
    await environment.rollout(item, contextFor({ kind: 'chat', model }));
    const prompt = model.calls[0]!.messages.map(messageText).join('\n');
    expect(prompt).not.toContain('Canberra');
    expect(prompt).not.toContain('## Search results');
    expect(prompt).toContain('## Question\n\nWhat is the capital of Australia?');
  });

  it('leaves out the skill heading when the skill is blank', async () => {
    const model = createScriptedChatModel({ reply: ['<answer>x</answer>'] });
    const [item] = await environment.loadSplit('val');
    await environment.rollout(item!, { ...contextFor({ kind: 'chat', model }), skill: '  \n' });
    expect(messageText(model.calls[0]!.messages[0]!)).toBe(ANSWER_FORMAT_INSTRUCTION);
  });

  it('scores a correct answer and returns a valid result with the reference and a trajectory', async () => {
    const [item] = await environment.loadSplit('test'); // Darwin
    const reply = 'The Beagle voyage points to him.\n<answer>Charles Darwin</answer>';
    const model = createScriptedChatModel({ reply: [reply] });
    const result = scored(await environment.rollout(item!, contextFor({ kind: 'chat', model })));
    expect(rolloutResultSchema.safeParse(result).success).toBe(true);
    expect(result).toMatchObject({ id: item!.id, taskType: 'qa', hard: 1, soft: 1, prediction: 'Charles Darwin', reference: 'Charles Darwin | Darwin' });
    expect(result.usage?.outputTokens).toBeGreaterThan(0);
    expect(result.details).toMatchObject({ em: 1, f1: 1, subEm: 1, answerSource: 'tag', turns: 1, finishReason: 'stop' });
    const turns = result.trajectory!.turns;
    expect(turns.map((turn) => turn.role)).toEqual(['user', 'assistant', 'environment']);
    expect(turns[0]!.content).toBe(messageText(model.calls[0]!.messages[1]!));
    expect(turns[1]!.content).toBe(reply);
    expect(turns[2]!.content).toContain('Verdict: correct');
    expect(result.trajectory!.failureReason).toBeUndefined();
    // The skill is not repeated in the trajectory: the optimizer already has it.
    expect(JSON.stringify(result.trajectory)).not.toContain('Rule 7');
  });

  it('explains a failure in the environment turn: extracted answer, references and why', async () => {
    const item: SearchQaTaskItem = {
      id: 'q2',
      taskType: 'qa',
      question: 'Who wrote Pride and Prejudice?',
      references: ['Austen'],
      answer_type: 'person_surname',
    };
    const model = createScriptedChatModel({ reply: ['I am sure.\nJane Austen'] });
    const result = scored(await environment.rollout(item, contextFor({ kind: 'chat', model })));
    expect(result).toMatchObject({ hard: 0, prediction: 'Jane Austen', reference: 'Austen' });
    expect(result.soft).toBeCloseTo(2 / 3, 10);
    expect(result.details).toMatchObject({ answerSource: 'last-line', answerType: 'person_surname' });
    expect(result.trajectory!.failureReason).toMatch(/^no <answer> tag.*first name/);
    const feedback = result.trajectory!.turns[2]!.content;
    expect(feedback).toContain('Extracted answer: "Jane Austen" (no <answer> tag found; taken from the last non-empty line)');
    expect(feedback).toContain('Reference answers: "Austen"');
    expect(feedback).toContain('Exact match: 0   Token F1: 0.6667');
    expect(feedback).toContain(`Verdict: wrong: ${result.trajectory!.failureReason}`);
  });

  it('lets a provider error propagate instead of scoring it', async () => {
    const [item] = await environment.loadSplit('train');
    const failure = createRetryableProviderErrorForTests();
    const model = createScriptedChatModel({
      reply: () => {
        throw failure;
      },
    });
    await expect(environment.rollout(item!, contextFor({ kind: 'chat', model }))).rejects.toBe(failure);
    expect(model.calls).toHaveLength(1);
  });

  it('rejects at once, without calling the target, when the signal is already aborted', async () => {
    const [item] = await environment.loadSplit('train');
    const controller = new AbortController();
    const reason = new Error('run stopped');
    controller.abort(reason);
    const model = createScriptedChatModel({ reply: ['<answer>x</answer>'] });
    await expect(environment.rollout(item!, contextFor({ kind: 'chat', model }, controller.signal))).rejects.toBe(reason);
    expect(model.calls).toHaveLength(0);
  });

  it('rejects with the abort reason when aborted during the call, and passes the signal on', async () => {
    const [item] = await environment.loadSplit('train');
    const stalling = createStallingTarget('chat');
    const controller = new AbortController();
    const pending = environment.rollout(item!, contextFor(stalling.target, controller.signal));
    await stalling.called;
    const reason = new Error('stop now');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    stalling.release();
  });

  it('abandons a call after exec_timeout with a retryable provider-timeout error', async () => {
    const slow = createEnvironment({ split_dir: FIXTURE_SPLIT_DIR, exec_timeout: 0.05 });
    const [item] = await slow.loadSplit('train');
    const stalling = createStallingTarget('chat');
    const error = await slow.rollout(item!, contextFor(stalling.target)).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: ERROR_CODES.providerTimeout, retryable: true, provider: 'test-double' });
    stalling.release();
  });
});

describe('rollout with an agent target', () => {
  const contexts = createWorkDirectoryRolloutContextsForTests();
  afterEach(() => contexts.removeAll());

  it('runs the agent once on task.md holding the user prompt, with the skill and exec_timeout, and scores its final text as chat does', async () => {
    const [item] = (await environment.loadSplit('train')) as SearchQaTaskItem[];
    const reference = item!.references[0]!;
    const runner = createScriptedAgentRunner({ reply: () => `I read the snippets.\n<answer>${reference}</answer>` });
    const result = scored(await environment.rollout(item!, contexts.contextFor({ skill: SKILL, target: { kind: 'agent', runner }, itemId: item!.id })));
    expect(runner.calls).toHaveLength(1);
    const request = runner.calls[0]!;
    const userPrompt = buildUserPrompt(item!.question, item!.context, 6000);
    expect(request.files).toEqual([{ path: AGENT_TASK_FILE, content: userPrompt }]);
    expect(request).toMatchObject({ skill: SKILL, timeoutMs: 120_000, purpose: 'rollout' });
    expect(request.prompt).toContain('Read `task.md` in your working directory');
    for (const answer of item!.references) expect(request.prompt).not.toContain(answer);
    expect(result).toMatchObject({ hard: 1, soft: 1, prediction: reference, details: { targetKind: 'agent', exitCode: 0, answerSource: 'tag' } });
    expect(result.trajectory?.turns[0]).toEqual({ role: 'user', content: userPrompt });

    const chat = scored(await environment.rollout(item!, contextFor({ kind: 'chat', model: createScriptedChatModel({ reply: () => reference }) })));
    const agent = scored(
      await environment.rollout(
        item!,
        contexts.contextFor({ skill: SKILL, target: { kind: 'agent', runner: createScriptedAgentRunner({ reply: () => reference }) }, itemId: item!.id }),
      ),
    );
    expect([agent.hard, agent.soft, agent.prediction]).toEqual([chat.hard, chat.soft, chat.prediction]);
  });

  it('passes a crashed harness on as the error it is, never a score', async () => {
    const [item] = await environment.loadSplit('train');
    const crash = new ProviderError({ provider: 'test-double', code: ERROR_CODES.processCrashed, message: 'the harness exited with code 1', retryable: true });
    const runner = createScriptedAgentRunner({
      reply: () => {
        throw crash;
      },
    });
    await expect(environment.rollout(item!, contexts.contextFor({ skill: SKILL, target: { kind: 'agent', runner }, itemId: item!.id }))).rejects.toBe(crash);
  });
});

describe('search snippets', () => {
  const block = (index: number) => `[DOC] [TLE] Title ${index} [PAR] ${'word '.repeat(60).trim()} ${index}`;

  it('keeps short contexts whole', () => {
    expect(truncateContext('[DOC] [TLE] a [PAR] b', 6000)).toBe('[DOC] [TLE] a [PAR] b');
  });

  it("cuts long contexts at a [DOC] boundary and keeps every kept block's marker", () => {
    const blocks = Array.from({ length: 40 }, (_unused, index) => block(index));
    const context = blocks.join(' ');
    expect(context.length).toBeGreaterThan(6000);
    // The most whole blocks from the start that fit in 6000 characters.
    let fitting = 0;
    while (blocks.slice(0, fitting + 1).join(' ').length <= 6000) fitting += 1;
    const cut = truncateContext(context, 6000);
    const [kept, note] = cut.split('\n');
    expect(kept).toBe(blocks.slice(0, fitting).join(' '));
    expect(kept!.split('[DOC]').length - 1).toBe(fitting);
    expect(fitting).toBeGreaterThan(10);
    expect(note).toBe('[... search results truncated ...]');
  });

  it('cuts inside the first block when even that one is too long', () => {
    const cut = truncateContext(`[DOC] [TLE] t [PAR] ${'x'.repeat(100)}`, 50);
    expect(cut).toBe(`[DOC] [TLE] t [PAR] ${'x'.repeat(30)}\n[... search results truncated ...]`);
  });

  it('uses max_context_chars in the user prompt', () => {
    const context = Array.from({ length: 10 }, (_unused, index) => block(index)).join(' ');
    expect(buildUserPrompt('Q?', context, 1000)).toContain('[... search results truncated ...]');
    expect(buildUserPrompt('Q?', context, 100_000)).not.toContain('truncated');
  });
});
