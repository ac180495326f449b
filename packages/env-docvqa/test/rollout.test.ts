import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import {
  ERROR_CODES,
  messageText,
  ProviderError,
  rolloutResultSchema,
  SkillOptError,
  type GenerateRequest,
  type ImagePart,
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
import { ANSWER_FORMAT_INSTRUCTION, buildUserText, createEnvironment, sniffImageMediaType, type DocVqaTaskItem } from '../src/index';
import { FIXTURE_SPLIT_DIR, TINY_JPEG_HEAD, temporaryDirectory, writeImage } from './helpers';

const SKILL = '# My skill\n\nRule Zeta: copy dates exactly as printed.\n';

function contextFor(target: Target, signal: AbortSignal = new AbortController().signal): RolloutContext {
  return createFilelessRolloutContextForTests({ skill: SKILL, target, signal });
}

function scored(result: RolloutResult): ScoredRollout {
  if (result.status !== 'scored') throw new Error(`expected a scored result, got ${JSON.stringify(result)}`);
  return result;
}

function imagePartsOf(request: GenerateRequest): ImagePart[] {
  return request.messages.flatMap((message) =>
    message.role === 'user' && Array.isArray(message.content) ? message.content.filter((part): part is ImagePart => part.type === 'image') : [],
  );
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

const environment = createEnvironment({ split_dir: FIXTURE_SPLIT_DIR });

describe('rollout', () => {
  it('makes exactly one rollout call per item: the skill, the question as text and the page as a base64 PNG data URL', async () => {
    const items = [
      ...(await environment.loadSplit('train')),
      ...(await environment.loadSplit('val')),
      ...(await environment.loadSplit('test')),
    ] as DocVqaTaskItem[];
    for (const item of items) {
      const model = createScriptedChatModel({ reply: ['<answer>something</answer>'] });
      await environment.rollout(item, contextFor({ kind: 'chat', model }));
      expect(model.calls).toHaveLength(1);
      const request = model.calls[0]!;
      expect(request.purpose).toBe('rollout');
      expect(request.maxOutputTokens).toBe(16384);
      const [system, user, ...rest] = request.messages;
      expect(rest).toHaveLength(0);
      expect(system).toEqual({ role: 'system', content: `# Skill\n\n${SKILL.trim()}\n\n# Task\n\n${ANSWER_FORMAT_INSTRUCTION}` });
      expect(user?.role).toBe('user');
      expect(Array.isArray(user!.content)).toBe(true);
      const [textPart, imagePart] = user!.content as Array<{ type: string }>;
      expect(textPart).toEqual({ type: 'text', text: `## Question\n\n${item.question}\n\nGive the final answer inside <answer></answer>.` });
      const png = await readFile(item.image_path);
      expect(imagePart).toEqual({ type: 'image', image: `data:image/png;base64,${png.toString('base64')}`, mediaType: 'image/png' });
      // The gold answers are never sent.
      const text = request.messages.map(messageText).join('\n');
      for (const reference of item.references) expect(text).not.toContain(reference);
    }
  });

  it('sends image_detail when it is not auto', async () => {
    const [item] = await createEnvironment({ split_dir: FIXTURE_SPLIT_DIR }).loadSplit('val');
    for (const detail of ['low', 'high'] as const) {
      const model = createScriptedChatModel({ reply: ['<answer>x</answer>'] });
      await createEnvironment({ split_dir: FIXTURE_SPLIT_DIR, image_detail: detail }).rollout(item!, contextFor({ kind: 'chat', model }));
      expect(imagePartsOf(model.calls[0]!)).toEqual([expect.objectContaining({ detail })]);
    }
  });

  it('leaves out the skill heading when the skill is blank', async () => {
    const model = createScriptedChatModel({ reply: ['<answer>x</answer>'] });
    const [item] = await environment.loadSplit('val');
    await environment.rollout(item!, { ...contextFor({ kind: 'chat', model }), skill: '  \n' });
    expect(messageText(model.calls[0]!.messages[0]!)).toBe(ANSWER_FORMAT_INSTRUCTION);
  });

  it('scores a correct answer and returns a valid result with a text-only trajectory', async () => {
    const item = (await environment.loadSplit('train'))[2] as DocVqaTaskItem; // Margaret Hollis
    const reply = 'The signature block reads it.\n<answer>margaret  hollis</answer>';
    const model = createScriptedChatModel({ reply: [reply] });
    const result = scored(await environment.rollout(item, contextFor({ kind: 'chat', model })));
    expect(rolloutResultSchema.safeParse(result).success).toBe(true);
    expect(result).toMatchObject({
      id: 'fixture-train-03',
      taskType: 'docvqa',
      hard: 1,
      soft: 1,
      prediction: 'margaret  hollis',
      reference: 'Margaret Hollis | M. Hollis',
    });
    expect(result.usage?.outputTokens).toBeGreaterThan(0);
    expect(result.details).toMatchObject({ anls: 1, answerSource: 'tag', turns: 1, finishReason: 'stop', image: 'fixture-train-03.png', topic: 'handwritten' });
    const turns = result.trajectory!.turns;
    expect(turns.map((turn) => turn.role)).toEqual(['user', 'assistant', 'environment']);
    expect(turns[0]!.content).toBe(
      `${messageText(model.calls[0]!.messages[1]!)}\n\n[page image shown to the model: fixture-train-03.png (image/png, 330 B, detail auto)]`,
    );
    expect(turns[1]!.content).toBe(reply);
    expect(turns[2]!.content).toContain('Verdict: correct');
    expect(result.trajectory!.failureReason).toBeUndefined();
    // Text only: no base64 in the trajectory, and the skill is not repeated (the optimizer has it).
    const serialised = JSON.stringify(result.trajectory);
    expect(serialised).not.toContain('base64');
    expect(serialised).not.toContain('iVBORw0KGgo');
    expect(serialised).not.toContain('Rule Zeta');
  });

  it('explains a near miss in the environment turn', async () => {
    const item = (await environment.loadSplit('train'))[1] as DocVqaTaskItem; // March 14, 1991
    const model = createScriptedChatModel({ reply: ['<answer>March 14 1991</answer>'] });
    const result = scored(await environment.rollout(item, contextFor({ kind: 'chat', model })));
    expect(result.hard).toBe(0);
    expect(result.soft).toBeCloseTo(1 - 1 / 14, 10);
    expect(result.trajectory!.failureReason).toMatch(/only in punctuation or spacing/);
    const feedback = result.trajectory!.turns[2]!.content;
    expect(feedback).toContain('Extracted answer: "March 14 1991" (from the last <answer> … </answer>)');
    expect(feedback).toContain('Reference answers: "March 14, 1991"');
    expect(feedback).toContain('ANLS: 0.9286 (a pass needs 0.999');
    expect(feedback).toContain(`Verdict: wrong: ${result.trajectory!.failureReason}`);
  });

  it('sends a JPEG page with its own media type, whatever the file name says', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      const file = path.join(dir, 'page.png');
      await writeImage(file, TINY_JPEG_HEAD);
      expect(sniffImageMediaType(TINY_JPEG_HEAD)).toBe('image/jpeg');
      const item: DocVqaTaskItem = { id: 'j1', taskType: 'docvqa', question: 'Q?', references: ['x'], image_path: file };
      const model = createScriptedChatModel({ reply: ['<answer>x</answer>'] });
      await environment.rollout(item, contextFor({ kind: 'chat', model }));
      expect(imagePartsOf(model.calls[0]!)[0]).toMatchObject({ mediaType: 'image/jpeg', image: expect.stringMatching(/^data:image\/jpeg;base64,\/9j\//) });
    } finally {
      await cleanup();
    }
  });

  it('turns a missing, empty or unrecognised page image into a data-invalid error without calling the target', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      const model = createScriptedChatModel({ reply: ['<answer>x</answer>'] });
      const itemFor = (file: string): DocVqaTaskItem => ({ id: 'gone', taskType: 'docvqa', question: 'Q?', references: ['x'], image_path: file });
      const missing = path.join(dir, 'nowhere.png');
      const error = await rejection(environment.rollout(itemFor(missing), contextFor({ kind: 'chat', model })));
      expect(SkillOptError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: ERROR_CODES.dataInvalid, category: 'user', message: `docvqa item gone: the page image ${missing} does not exist` });
      await writeImage(path.join(dir, 'empty.png'), Buffer.alloc(0));
      await expect(environment.rollout(itemFor(path.join(dir, 'empty.png')), contextFor({ kind: 'chat', model }))).rejects.toThrow(/is empty/);
      await writeImage(path.join(dir, 'page.tif'), Buffer.from('II*\0 not a supported format'));
      await expect(environment.rollout(itemFor(path.join(dir, 'page.tif')), contextFor({ kind: 'chat', model }))).rejects.toThrow(
        /not a PNG, JPEG, GIF or WebP file/,
      );
      await expect(environment.rollout(itemFor(dir), contextFor({ kind: 'chat', model }))).rejects.toThrow(/is a directory/);
      expect(model.calls).toHaveLength(0);
    } finally {
      await cleanup();
    }
  });

  it('refuses an item that was not loaded by this env', async () => {
    const model = createScriptedChatModel({ reply: ['<answer>x</answer>'] });
    await expect(environment.rollout({ id: 'q', taskType: 'docvqa', question: 'Q?', references: ['x'] }, contextFor({ kind: 'chat', model }))).rejects.toThrow(
      /has no question, references or image_path/,
    );
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
    const error = await rejection(slow.rollout(item!, contextFor(stalling.target)));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: ERROR_CODES.providerTimeout, retryable: true, provider: 'test-double' });
    stalling.release();
  });

  it('reads the image fresh for every rollout, so a page deleted mid-run is reported', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      const file = path.join(dir, 'p.png');
      await writeImage(file);
      const item: DocVqaTaskItem = { id: 'late', taskType: 'docvqa', question: 'Q?', references: ['x'], image_path: file };
      const model = createScriptedChatModel({ reply: () => '<answer>x</answer>' });
      expect(scored(await environment.rollout(item, contextFor({ kind: 'chat', model }))).hard).toBe(1);
      await rm(file);
      await expect(environment.rollout(item, contextFor({ kind: 'chat', model }))).rejects.toMatchObject({ code: ERROR_CODES.dataInvalid });
    } finally {
      await cleanup();
    }
  });
});

describe('rollout with an agent target', () => {
  const contexts = createWorkDirectoryRolloutContextsForTests();
  afterEach(() => contexts.removeAll());

  it("runs the agent once on task.md holding the question and the item's page image beside it, and scores its final text by ANLS as chat does", async () => {
    const [item] = (await environment.loadSplit('train')) as DocVqaTaskItem[];
    const reference = item!.references[0]!;
    const runner = createScriptedAgentRunner({ reply: () => `The page says\n<answer>${reference}</answer>` });
    const result = scored(await environment.rollout(item!, contexts.contextFor({ skill: SKILL, target: { kind: 'agent', runner }, itemId: item!.id })));
    expect(runner.calls).toHaveLength(1);
    const request = runner.calls[0]!;
    expect(request.files?.map((file) => file.path)).toEqual([AGENT_TASK_FILE, 'page.png']);
    expect(request.files?.[0]?.content).toBe(buildUserText(item!.question));
    expect(Buffer.from(request.files?.[1]?.content as Uint8Array).equals(await readFile(item!.image_path))).toBe(true);
    expect(request).toMatchObject({ skill: SKILL, timeoutMs: 120_000, purpose: 'rollout' });
    expect(request.prompt).toContain('the image file page.png beside it');
    expect(result).toMatchObject({ hard: 1, soft: 1, prediction: reference, details: { targetKind: 'agent', answerSource: 'tag' } });
    expect(result.trajectory?.turns[0]?.content).toContain(
      `[page image in the agent's workspace: page.png, from ${path.basename(item!.image_path)} (image/png,`,
    );

    const untagged = `Reading the page.\n${reference}`;
    const chat = scored(await environment.rollout(item!, contextFor({ kind: 'chat', model: createScriptedChatModel({ reply: () => untagged }) })));
    const agent = scored(
      await environment.rollout(
        item!,
        contexts.contextFor({ skill: SKILL, target: { kind: 'agent', runner: createScriptedAgentRunner({ reply: () => untagged }) }, itemId: item!.id }),
      ),
    );
    expect([agent.hard, agent.soft, agent.prediction]).toEqual([chat.hard, chat.soft, chat.prediction]);
  });

  it('names a JPEG page page.jpg, by its real format', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      const file = path.join(dir, 'scan.png');
      await writeImage(file, TINY_JPEG_HEAD);
      const item: DocVqaTaskItem = { id: 'jpeg', taskType: 'docvqa', question: 'Q?', references: ['x'], image_path: file };
      const runner = createScriptedAgentRunner({ reply: () => '<answer>x</answer>' });
      await environment.rollout(item, contexts.contextFor({ skill: SKILL, target: { kind: 'agent', runner }, itemId: item.id }));
      expect(runner.calls[0]?.files?.map((entry) => entry.path)).toEqual([AGENT_TASK_FILE, 'page.jpg']);
    } finally {
      await cleanup();
    }
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
