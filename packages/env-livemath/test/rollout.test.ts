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
  createReferenceAnsweringChatModel,
  createRetryableProviderErrorForTests,
  createScriptedAgentRunner,
  createScriptedChatModel,
  createStallingTarget,
  createWorkDirectoryRolloutContextsForTests,
} from '@skillopt/env-kit/testing';
import { AGENT_TASK_FILE } from '@skillopt/env-kit';
import { ANSWER_FORMAT_INSTRUCTION, buildUserPrompt, createEnvironment, type LiveMathTaskItem } from '../src/index';
import { FIXTURE_SPLIT_DIR } from './helpers';

const SKILL = '# My skill\n\nRule 7: test the boundary cases.\n';

function contextFor(target: Target, signal: AbortSignal = new AbortController().signal): RolloutContext {
  return createFilelessRolloutContextForTests({ skill: SKILL, target, signal });
}

function scored(result: RolloutResult): ScoredRollout {
  if (result.status !== 'scored') throw new Error(`expected a scored result, got ${JSON.stringify(result)}`);
  return result;
}

const environment = createEnvironment({ split_dir: FIXTURE_SPLIT_DIR });
const allItems = async () =>
  [...(await environment.loadSplit('train')), ...(await environment.loadSplit('val')), ...(await environment.loadSplit('test'))] as LiveMathTaskItem[];

describe('rollout', () => {
  it('makes exactly one rollout call per item: skill under # Skill, instruction under # Task, question and lettered choices', async () => {
    for (const item of await allItems()) {
      const model = createScriptedChatModel({ reply: ['<answer>A</answer>'] });
      await environment.rollout(item, contextFor({ kind: 'chat', model }));
      expect(model.calls).toHaveLength(1);
      const request = model.calls[0]!;
      expect(request.purpose).toBe('rollout');
      expect(request.maxOutputTokens).toBe(16384);
      const [system, user, ...rest] = request.messages;
      expect(rest).toHaveLength(0);
      expect([system?.role, user?.role]).toEqual(['system', 'user']);
      const systemText = messageText(system!);
      const userText = messageText(user!);
      expect(systemText).toBe(`# Skill\n\n${SKILL.trim()}\n\n# Task\n\n${ANSWER_FORMAT_INSTRUCTION}`);
      expect(systemText).toContain('<answer></answer>');
      expect(userText.startsWith(`## Question\n\n${item.question}\n\n## Choices\n\n`)).toBe(true);
      for (const choice of item.choices) expect(userText).toContain(`\n${choice.label}. ${choice.text}`);
      // Which choice is correct is never said, and the hints are off by default.
      expect(userText).not.toMatch(/correct|## Theorem|## Proof sketch/);
      expect(userText).not.toContain(item.theorem!);
    }
  });

  it('shows the choices in the shuffled order the item carries', async () => {
    const [item] = (await environment.loadSplit('train')) as LiveMathTaskItem[];
    const model = createScriptedChatModel({ reply: ['<answer>A</answer>'] });
    await environment.rollout(item!, contextFor({ kind: 'chat', model }));
    const listed = messageText(model.calls[0]!.messages[1]!).split('## Choices\n\n')[1]!;
    expect(listed).toBe(item!.choices.map((choice) => `${choice.label}. ${choice.text}`).join('\n'));
  });

  it('adds the theorem and the proof sketch with use_theorem and use_sketch', async () => {
    const hinted = createEnvironment({ split_dir: FIXTURE_SPLIT_DIR, use_theorem: true, use_sketch: true });
    const [item] = (await hinted.loadSplit('val')) as LiveMathTaskItem[];
    const model = createScriptedChatModel({ reply: ['<answer>A</answer>'] });
    const result = scored(await hinted.rollout(item!, contextFor({ kind: 'chat', model })));
    const userText = messageText(model.calls[0]!.messages[1]!);
    expect(userText).toContain(`## Theorem\n\n${item!.theorem}`);
    expect(userText).toContain(`## Proof sketch\n\n${item!.sketch}`);
    expect(userText.indexOf('## Choices')).toBeLessThan(userText.indexOf('## Theorem'));
    // Already shown to the model, so not repeated as a hidden reference.
    expect(result.trajectory!.turns[2]!.content).not.toContain('Reference theorem');
  });

  it('leaves out the headings when the skill is blank', async () => {
    const model = createScriptedChatModel({ reply: ['<answer>A</answer>'] });
    const [item] = await environment.loadSplit('val');
    await environment.rollout(item!, { ...contextFor({ kind: 'chat', model }), skill: '  \n' });
    expect(messageText(model.calls[0]!.messages[0]!)).toBe(ANSWER_FORMAT_INSTRUCTION);
  });

  it('scores a correct answer, given as a letter or as the choice text, and returns a valid result with a trajectory', async () => {
    const [item] = (await environment.loadSplit('test')) as LiveMathTaskItem[];
    const [label, text] = item!.references;
    for (const answer of [label!, `(${label!.toLowerCase()})`, text!]) {
      const reply = `84 = 2^2 * 3 * 7 and 120 = 2^3 * 3 * 5.\n<answer>${answer}</answer>`;
      const model = createScriptedChatModel({ reply: [reply] });
      const result = scored(await environment.rollout(item!, contextFor({ kind: 'chat', model })));
      expect(rolloutResultSchema.safeParse(result).success).toBe(true);
      expect(result).toMatchObject({ id: item!.id, taskType: 'math_mcq', hard: 1, soft: 1, prediction: label, reference: `${label}. ${text}` });
      expect(result.details).toMatchObject({
        predictedLabel: label,
        correctLabel: label,
        correctText: text,
        answerSource: 'tag',
        turns: 1,
        theoremTypes: ['number theory'],
      });
      const turns = result.trajectory!.turns;
      expect(turns.map((turn) => turn.role)).toEqual(['user', 'assistant', 'environment']);
      expect(turns[0]!.content).toBe(messageText(model.calls[0]!.messages[1]!));
      expect(turns[1]!.content).toBe(reply);
      expect(turns[2]!.content).toContain('Verdict: correct');
      expect(result.trajectory!.failureReason).toBeUndefined();
      expect(JSON.stringify(result.trajectory)).not.toContain('Rule 7');
    }
  });

  it('explains a wrong answer in the environment turn, with the hidden theorem and sketch for the optimizer', async () => {
    const [item] = (await environment.loadSplit('test')) as LiveMathTaskItem[];
    const wrong = item!.choices.find((choice) => choice.label !== item!.references[0])!;
    const model = createScriptedChatModel({ reply: [`<answer>${wrong.label}</answer>`] });
    const result = scored(await environment.rollout(item!, contextFor({ kind: 'chat', model })));
    expect(result).toMatchObject({ hard: 0, soft: 0, prediction: wrong.label });
    expect(result.trajectory!.failureReason).toBe(`chose ${wrong.label} ("${wrong.text}"), which is not the correct choice`);
    const feedback = result.trajectory!.turns[2]!.content;
    expect(feedback).toContain(`Extracted answer: "${wrong.label}" (from the last <answer> tag)`);
    expect(feedback).toContain(`Chosen choice: ${wrong.label}. ${wrong.text}`);
    expect(feedback).toContain(`Correct choice: ${item!.references[0]}. ${item!.references[1]}`);
    expect(feedback).toContain(`Verdict: wrong: ${result.trajectory!.failureReason}`);
    expect(feedback).toContain(`Reference theorem (not shown to the model):\n${item!.theorem}`);
    expect(feedback).toContain(`Reference proof sketch (not shown to the model):\n${item!.sketch}`);
  });

  it('is answered perfectly by a model that knows the references', async () => {
    const items = await allItems();
    const model = createReferenceAnsweringChatModel(items);
    for (const item of items) expect(await environment.rollout(item, contextFor({ kind: 'chat', model }))).toMatchObject({ status: 'scored', hard: 1 });
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
    const model = createScriptedChatModel({ reply: ['<answer>A</answer>'] });
    await expect(environment.rollout(item!, contextFor({ kind: 'chat', model }, controller.signal))).rejects.toBe(reason);
    expect(model.calls).toHaveLength(0);
  });

  it('rejects with the abort reason when aborted during the call', async () => {
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

  it('refuses an item without choices with a clear error', async () => {
    const model = createScriptedChatModel({ reply: ['<answer>A</answer>'] });
    await expect(
      environment.rollout({ id: 'bare', taskType: 'math_mcq', question: 'Q?', references: ['A'] }, contextFor({ kind: 'chat', model })),
    ).rejects.toThrow(/has no question, choices or correct label/);
    expect(model.calls).toHaveLength(0);
  });
});

describe('rollout with an agent target', () => {
  const contexts = createWorkDirectoryRolloutContextsForTests();
  afterEach(() => contexts.removeAll());

  it('runs the agent once on task.md holding the question and lettered choices, and scores the letter of its final text as chat does', async () => {
    const [item] = await allItems();
    const correct = item!.references[0]!;
    const runner = createScriptedAgentRunner({ reply: () => `Checking each choice.\n<answer>${correct}</answer>` });
    const result = scored(await environment.rollout(item!, contexts.contextFor({ skill: SKILL, target: { kind: 'agent', runner }, itemId: item!.id })));
    expect(runner.calls).toHaveLength(1);
    const request = runner.calls[0]!;
    const userPrompt = buildUserPrompt({ question: item!.question, choices: item!.choices });
    expect(request.files).toEqual([{ path: AGENT_TASK_FILE, content: userPrompt }]);
    expect(request).toMatchObject({ skill: SKILL, timeoutMs: 300_000, purpose: 'rollout' });
    expect(request.prompt).toContain('the letter of the choice you pick');
    expect(result).toMatchObject({ hard: 1, soft: 1, prediction: correct, details: { targetKind: 'agent', predictedLabel: correct, answerSource: 'tag' } });

    const untagged = `I pick\n${correct}`;
    const chat = scored(await environment.rollout(item!, contextFor({ kind: 'chat', model: createScriptedChatModel({ reply: () => untagged }) })));
    const agent = scored(
      await environment.rollout(
        item!,
        contexts.contextFor({ skill: SKILL, target: { kind: 'agent', runner: createScriptedAgentRunner({ reply: () => untagged }) }, itemId: item!.id }),
      ),
    );
    expect([agent.hard, agent.prediction, agent.details?.answerSource]).toEqual([chat.hard, chat.prediction, chat.details?.answerSource]);
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
