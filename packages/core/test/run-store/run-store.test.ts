import { appendFile, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { z } from 'zod';
import { skillHash } from '../../src/skill-hash';
import {
  checkResumableRunDirectory,
  createRunStore,
  loadRunState,
  openRunStore,
  createJsonLinesAppender,
  redactArtifactSecrets,
  secretEnvironmentValues,
  writeJsonAtomic,
  type RunStore,
  type RuntimeStateInput,
  type SkillReference,
} from '../../src/run-store/index';
import { acceptedStepRecord, rejectedStepRecord } from './step-record-fixtures';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'skillopt-run-store-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A trainer's own part of the state, as the store sees it: whatever schema its owner declares. */
const trainerSchema = z.strictObject({ rejectedEdits: z.array(z.json()), note: z.string() });
type TestTrainerState = z.infer<typeof trainerSchema>;
const storeOptions = { trainerSchema };

const INITIAL_SKILL = '# Skill\n\nAnswer briefly.\n';
const STEP_1_SKILL = '# Skill\n\nAnswer briefly.\nGive units.\n';
const STEP_1_RECORD = acceptedStepRecord(1);

function stateFor(options: {
  step: number;
  current: SkillReference;
  currentScore: number | null;
  best: SkillReference;
  bestScore: number | null;
  bestStep: number;
  trainer?: TestTrainerState;
}): RuntimeStateInput<TestTrainerState> {
  return {
    lastCompletedStep: options.step,
    epoch: options.step === 0 ? 0 : 1,
    stepInEpoch: options.step,
    current: {
      ...options.current,
      origin: options.step === 0 ? 'initial-skill' : `step_000${options.step}`,
      score: options.currentScore,
      selectionHard: options.currentScore,
      selectionSoft: null,
    },
    best: {
      ...options.best,
      origin: options.bestStep === 0 ? 'initial-skill' : `step_000${options.bestStep}`,
      score: options.bestScore,
      selectionHard: options.bestScore,
      selectionSoft: null,
      step: options.bestStep,
    },
    trainer: options.trainer ?? { rejectedEdits: [], note: 'fresh' },
  };
}

/** A run with a committed baseline (score 0) and a committed, accepted step 1 (score 0.5). */
async function runWithOneStep(directory: string): Promise<{ store: RunStore<TestTrainerState>; initial: SkillReference; step1: SkillReference }> {
  const store = await createRunStore(directory, { ...storeOptions, runId: 'run-test' });
  await store.writeConfig({ train: { num_epochs: 2 } });
  const initial = await store.writeSkillVersion(0, INITIAL_SKILL);
  await store.commitRuntimeState(stateFor({ step: 0, current: initial, currentScore: 0, best: initial, bestScore: 0, bestStep: 0 }));
  await store.writeStepArtifact(1, 'ranked_edits.json', { reasoning: 'r', edits: [{ op: 'append', content: 'Give units.' }] });
  await store.writeStepArtifact(1, 'candidate_skill.md', STEP_1_SKILL);
  await store.writeStepArtifact(1, 'patches/minibatch_fail_000.json', { edits: [] });
  const step1 = await store.writeSkillVersion(1, STEP_1_SKILL);
  await store.commitStep({
    record: STEP_1_RECORD,
    state: stateFor({
      step: 1,
      current: step1,
      currentScore: 0.5,
      best: step1,
      bestScore: 0.5,
      bestStep: 1,
      trainer: { rejectedEdits: [{ op: 'delete', target: 'x', reason: 'regressed' }], note: 'after step 1' },
    }),
  });
  return { store, initial, step1 };
}

describe('the run store', () => {
  it('writes the run directory layout with relative skill paths', async () => {
    const directory = path.join(root, 'run');
    await runWithOneStep(directory);
    expect((await readdir(directory)).sort()).toEqual(['best_skill.md', 'config.json', 'history.jsonl', 'run.json', 'runtime_state.json', 'skills', 'steps']);
    expect(await readdir(path.join(directory, 'skills'))).toEqual(['skill_v0000.md', 'skill_v0001.md']);
    expect((await readdir(path.join(directory, 'steps', 'step_0001'))).sort()).toEqual([
      'candidate_skill.md',
      'patches',
      'ranked_edits.json',
      'step_record.json',
    ]);
    expect(await readFile(path.join(directory, 'best_skill.md'), 'utf8')).toBe(STEP_1_SKILL);

    const state = JSON.parse(await readFile(path.join(directory, 'runtime_state.json'), 'utf8'));
    expect(state).toMatchObject({
      formatVersion: 2,
      runId: 'run-test',
      lastCompletedStep: 1,
      current: { skillPath: 'skills/skill_v0001.md', skillHash: skillHash(STEP_1_SKILL), score: 0.5 },
      best: { skillPath: 'skills/skill_v0001.md', step: 1 },
    });
    expect(JSON.stringify(state)).not.toContain(root);
    expect(
      (await readFile(path.join(directory, 'history.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([STEP_1_RECORD]);
  });

  it('resumes a run directory that was moved elsewhere', async () => {
    const original = path.join(root, 'original');
    await runWithOneStep(original);
    const moved = path.join(root, 'elsewhere', 'moved');
    await mkdir(path.dirname(moved), { recursive: true });
    await rename(original, moved);

    const resumed = await loadRunState(moved, trainerSchema);
    expect(resumed?.directory).toBe(moved);
    expect(resumed?.currentSkill).toBe(STEP_1_SKILL);
    expect(resumed?.bestSkill).toBe(STEP_1_SKILL);
    expect(resumed?.state.trainer).toEqual({ rejectedEdits: [{ op: 'delete', target: 'x', reason: 'regressed' }], note: 'after step 1' });
    expect(resumed?.history.map((record) => record.step)).toEqual([1]);

    const store = await openRunStore(moved, storeOptions);
    expect(store.runId).toBe('run-test');
    expect(store.state?.lastCompletedStep).toBe(1);
  });

  it('keeps a score of 0 as 0 and an unevaluated score as null', async () => {
    const directory = path.join(root, 'zero');
    const store = await createRunStore(directory, storeOptions);
    const initial = await store.writeSkillVersion(0, INITIAL_SKILL);
    await store.commitRuntimeState(stateFor({ step: 0, current: initial, currentScore: 0, best: initial, bestScore: null, bestStep: 0 }));
    const resumed = await loadRunState(directory, trainerSchema);
    expect(resumed?.state.current.score).toBe(0);
    expect(resumed?.state.best.score).toBeNull();
  });

  it('gives a clear error for a runtime_state.json that is not JSON', async () => {
    const directory = path.join(root, 'corrupt');
    await runWithOneStep(directory);
    await writeFile(path.join(directory, 'runtime_state.json'), '{"lastCompletedStep": 1, "current": ');
    const failure = await loadRunState(directory, trainerSchema).catch((error: unknown) => error);
    expect(SkillOptError.isInstance(failure)).toBe(true);
    const error = failure as SkillOptError;
    expect(error.code).toBe(ERROR_CODES.dataInvalid);
    expect(error.category).toBe('user');
    expect(error.message).toContain(path.join(directory, 'runtime_state.json'));
    expect(error.message).toContain('is not valid JSON');
    expect(error.message).toContain('cannot resume');
  });

  it('names the offending fields of a runtime_state.json of the wrong shape', async () => {
    const directory = path.join(root, 'wrong-shape');
    await runWithOneStep(directory);
    const state = JSON.parse(await readFile(path.join(directory, 'runtime_state.json'), 'utf8'));
    state.current.score = 'high';
    delete state.lastCompletedStep;
    await writeFile(path.join(directory, 'runtime_state.json'), JSON.stringify(state));
    await expect(loadRunState(directory, trainerSchema)).rejects.toThrow(/does not have the expected shape[\s\S]*lastCompletedStep[\s\S]*current\.score/);
  });

  it('detects a committed skill file that was changed afterwards', async () => {
    const directory = path.join(root, 'tampered');
    await runWithOneStep(directory);
    await writeFile(path.join(directory, 'skills', 'skill_v0001.md'), 'something else\n');
    await expect(loadRunState(directory, trainerSchema)).rejects.toThrow(/skill_v0001\.md was changed after it was committed as the current skill/);
  });

  it('reports a missing run directory and returns nothing for a directory without a commit', async () => {
    await expect(loadRunState(path.join(root, 'missing'), trainerSchema)).rejects.toThrow(/does not exist/);
    await mkdir(path.join(root, 'empty'));
    await expect(loadRunState(path.join(root, 'empty'), trainerSchema)).resolves.toBeUndefined();
  });

  it('refuses to create a run where one is committed', async () => {
    const directory = path.join(root, 'taken');
    await runWithOneStep(directory);
    const failure = await createRunStore(directory, storeOptions).catch((error: unknown) => error);
    expect(SkillOptError.isInstance(failure) && failure.message).toMatch(/already holds a run \(last completed step 1\)[\s\S]*skillopt train --resume/);
  });

  it('writes the run’s identity and then its config before anything else, and keeps the id when it resumes with nothing committed', async () => {
    const directory = path.join(root, 'first-instant');
    const store = await createRunStore(directory, {
      ...storeOptions,
      runId: 'run-first',
      config: { train: { num_epochs: 2 }, backends: { openai: { api_key: 'sk-abcdefghijklmnopqrstuv' } } },
    });
    // A kill now leaves exactly these two files: enough to resume, and nothing that could be half-written.
    expect((await readdir(directory)).sort()).toEqual(['config.json', 'run.json']);
    expect(JSON.parse(await readFile(path.join(directory, 'run.json'), 'utf8'))).toMatchObject({ formatVersion: 2, runId: 'run-first' });
    const config = await readFile(path.join(directory, 'config.json'), 'utf8');
    expect(JSON.parse(config)).toMatchObject({ train: { num_epochs: 2 } });
    expect(config).not.toContain('sk-abcdefghijklmnopqrstuv');
    expect(store.runId).toBe('run-first');
    await expect(checkResumableRunDirectory(directory)).resolves.toBeUndefined();
    const reopened = await openRunStore(directory, storeOptions);
    expect(reopened.runId).toBe('run-first');
    expect(reopened.state).toBeUndefined();
  });

  it('refuses to create a run where one was started and committed nothing, naming the resume command', async () => {
    const directory = path.join(root, 'started');
    await createRunStore(directory, { ...storeOptions, config: { train: {} } });
    const failure = await createRunStore(directory, storeOptions).catch((error: unknown) => error);
    expect(SkillOptError.isInstance(failure) && failure.message).toMatch(/already holds a run that stopped before its baseline[\s\S]*skillopt train --resume/);
  });

  it('gives a run of an earlier release, with a config.json and no run.json, one id from its first resume on', async () => {
    const directory = path.join(root, 'earlier');
    await mkdir(directory);
    await writeFile(path.join(directory, 'config.json'), '{}\n');
    const first = await openRunStore(directory, storeOptions);
    const second = await openRunStore(directory, storeOptions);
    expect(second.runId).toBe(first.runId);
  });

  it('says how to start a run when there is nothing to resume', async () => {
    const empty = path.join(root, 'nothing');
    await mkdir(empty);
    await writeFile(path.join(empty, 'skillopt.lock'), '{}');
    for (const [directory, why] of [
      [path.join(root, 'missing'), 'it does not exist'],
      [empty, 'no run was started there (it has no config.json)'],
    ] as const) {
      const failure = await checkResumableRunDirectory(directory).catch((error: unknown) => error);
      expect(SkillOptError.isInstance(failure)).toBe(true);
      expect((failure as SkillOptError).category).toBe('user');
      expect((failure as SkillOptError).message).toBe(
        `There is nothing to resume in ${directory}: ${why}. Start a run there with \`skillopt train --config <your config> --out ${directory}\`.`,
      );
    }
  });

  describe('commit protocol', () => {
    it('leaves the previous commit in force when a step is killed before runtime_state.json is written', async () => {
      const directory = path.join(root, 'killed');
      const { step1 } = await runWithOneStep(directory);
      // Everything step 2 writes before its commit point, as a kill just before runtime_state.json leaves it.
      const step2Skill = `${STEP_1_SKILL}Check the date.\n`;
      const store = await openRunStore(directory, storeOptions);
      await store.writeStepArtifact(2, 'candidate_skill.md', step2Skill);
      await store.writeSkillVersion(2, step2Skill);
      await writeFile(path.join(directory, 'steps', 'step_0002', 'step_record.json'), JSON.stringify(acceptedStepRecord(2)));
      await appendFile(path.join(directory, 'history.jsonl'), `${JSON.stringify(acceptedStepRecord(2))}\n`);
      await writeFile(path.join(directory, 'best_skill.md'), step2Skill);

      const resumed = await loadRunState(directory, trainerSchema);
      expect(resumed?.state.lastCompletedStep).toBe(1);
      expect(resumed?.currentSkill).toBe(STEP_1_SKILL);
      expect(resumed?.bestSkill).toBe(STEP_1_SKILL);
      expect(resumed?.history.map((record) => record.step)).toEqual([1]);

      // Opening restores the best_skill.md copy and clears the abandoned attempt when asked.
      const reopened = await openRunStore(directory, storeOptions);
      expect(await readFile(path.join(directory, 'best_skill.md'), 'utf8')).toBe(STEP_1_SKILL);
      await reopened.clearUncommittedStep(2);
      expect(await reopened.readStepArtifact(2, 'candidate_skill.md')).toBeUndefined();
      await expect(reopened.clearUncommittedStep(1)).rejects.toThrow(/committed/);

      // The redone step commits over the abandoned attempt, and history has each step once.
      const redone = await reopened.writeSkillVersion(2, `${STEP_1_SKILL}Check the year.\n`);
      await reopened.commitStep({
        record: rejectedStepRecord(2),
        state: stateFor({ step: 2, current: step1, currentScore: 0.5, best: step1, bestScore: 0.5, bestStep: 1 }),
      });
      expect(redone.skillPath).toBe('skills/skill_v0002.md');
      expect((await loadRunState(directory, trainerSchema))?.history.map((record) => [record.step, record.outcome])).toEqual([
        [1, 'accepted'],
        [2, 'rejected'],
      ]);
    });

    it('writes runtime_state.json only after the step record, the history line and best_skill.md', async () => {
      const directory = path.join(root, 'order');
      const { store } = await runWithOneStep(directory);
      const step2 = await store.writeSkillVersion(2, `${STEP_1_SKILL}More.\n`);
      const written: string[] = [];
      // Every atomic write ends in a rename onto its target: the renames give the order of the writes.
      const fsPromises = jest.requireActual<typeof import('node:fs/promises')>('node:fs/promises');
      const originalRename = fsPromises.rename;
      const renameSpy = jest.spyOn(fsPromises, 'rename').mockImplementation(async (from, to) => {
        written.push(path.basename(String(to)));
        return originalRename(from, to);
      });
      // history.jsonl is appended to, not renamed onto: opening it marks when its line is written
      // (the store keeps it open between commits, so it is closed first).
      await store.close();
      const originalOpen = fsPromises.open;
      const openSpy = jest.spyOn(fsPromises, 'open').mockImplementation(async (file, ...rest) => {
        if (path.basename(String(file)) === 'history.jsonl') written.push('history.jsonl');
        return originalOpen(file, ...rest);
      });
      try {
        await store.commitStep({
          record: acceptedStepRecord(2),
          state: stateFor({ step: 2, current: step2, currentScore: 0.6, best: step2, bestScore: 0.6, bestStep: 2 }),
        });
      } finally {
        renameSpy.mockRestore();
        openSpy.mockRestore();
      }
      expect(written).toEqual(['step_record.json', 'history.jsonl', 'best_skill.md', 'runtime_state.json']);
    });

    it('refuses a commit that points to a skill that was not written', async () => {
      const directory = path.join(root, 'dangling');
      const { store, step1 } = await runWithOneStep(directory);
      const ghost = { skillPath: 'skills/skill_v0002.md', skillHash: skillHash('ghost') };
      await expect(
        store.commitStep({
          record: acceptedStepRecord(2),
          state: stateFor({ step: 2, current: ghost, currentScore: 0.1, best: step1, bestScore: 0.5, bestStep: 1 }),
        }),
      ).rejects.toThrow(/skill_v0002\.md, which does not exist/);
      expect((await loadRunState(directory, trainerSchema))?.state.lastCompletedStep).toBe(1);
    });

    it('refuses out-of-order and mismatched step commits', async () => {
      const directory = path.join(root, 'order-checks');
      const { store, step1 } = await runWithOneStep(directory);
      const state = stateFor({ step: 1, current: step1, currentScore: 0.5, best: step1, bestScore: 0.5, bestStep: 1 });
      await expect(store.commitStep({ record: acceptedStepRecord(1), state })).rejects.toThrow(/increasing order/);
      await expect(store.commitStep({ record: acceptedStepRecord(3), state: { ...state, lastCompletedStep: 2 } })).rejects.toThrow(/record is for step 3/);
      await expect(store.commitRuntimeState({ ...state, lastCompletedStep: 2 })).rejects.toThrow(/keeps lastCompletedStep at 1/);
    });
  });

  it("keeps the trainer's part as its owner's schema declares it, and refuses one that does not fit", async () => {
    const directory = path.join(root, 'trainer-part');
    const { store, step1 } = await runWithOneStep(directory);
    const base = stateFor({ step: 1, current: step1, currentScore: 0.5, best: step1, bestScore: 0.5, bestStep: 1 });
    await store.commitRuntimeState({ ...base, trainer: { rejectedEdits: [], note: 'after the epoch end' } });
    expect((await loadRunState(directory, trainerSchema))?.state.trainer.note).toBe('after the epoch end');
    await expect(store.commitRuntimeState({ ...base, trainer: { rejectedEdits: [], note: 5 } as never })).rejects.toThrow(
      /runtime state to commit is invalid[\s\S]*trainer\.note/,
    );
    // A trainer part of another shape on disk is a clear error at resume, not a crash later.
    await expect(loadRunState(directory, z.strictObject({ counters: z.int() }))).rejects.toThrow(/does not have the expected shape[\s\S]*trainer/);
  });

  it('rebuilds a missing history.jsonl from the step records', async () => {
    const directory = path.join(root, 'no-history');
    await runWithOneStep(directory);
    await rm(path.join(directory, 'history.jsonl'));
    expect((await loadRunState(directory, trainerSchema))?.history).toEqual([STEP_1_RECORD]);
  });

  it('refuses artifact names that leave their directory', async () => {
    const { store } = await runWithOneStep(path.join(root, 'names'));
    await expect(store.writeStepArtifact(1, '../escape.json', {})).rejects.toThrow(/stays inside/);
    await expect(store.writeStepArtifact(1, '/etc/passwd', 'x')).rejects.toThrow(/stays inside/);
  });

  it('never writes secrets into config.json or summary.json', async () => {
    const directory = path.join(root, 'secrets');
    const store = await createRunStore(directory, storeOptions);
    process.env.SKILLOPT_TEST_API_KEY = 'sk-test-0123456789abcdef';
    try {
      await store.writeConfig({
        backends: { openai: { api_key: 'sk-...cdef', base_url: 'https://x.test?key=sk-test-0123456789abcdef' } },
        train: { max_tokens: 100 },
      });
      await store.writeSummary({ config: { token: 'abc' }, note: 'used sk-test-0123456789abcdef' });
    } finally {
      delete process.env.SKILLOPT_TEST_API_KEY;
    }
    const config = await readFile(path.join(directory, 'config.json'), 'utf8');
    const summary = await readFile(path.join(directory, 'summary.json'), 'utf8');
    expect(config).not.toContain('sk-test-0123456789abcdef');
    expect(summary).not.toContain('sk-test-0123456789abcdef');
    expect(JSON.parse(config)).toEqual({
      backends: { openai: { api_key: '[redacted]', base_url: 'https://x.test?key=[redacted]' } },
      train: { max_tokens: 100 },
    });
    expect(JSON.parse(summary).config.token).toBe('[redacted]');
  });

  it('redacts environment values only for secret-looking variables', () => {
    const environment = { HOME: '/home/someone', GITHUB_TOKEN: 'ghp_abcdefghijkl' };
    expect(redactArtifactSecrets({ home: '/home/someone', key: 'x' }, secretEnvironmentValues(environment))).toEqual({
      home: '/home/someone',
      key: 'x',
    });
    expect(redactArtifactSecrets(['my-github-token-value'], secretEnvironmentValues({ GITHUB_TOKEN: 'my-github-token-value' }))).toEqual(['[redacted]']);
  });

  it('cuts secrets out of every JSON artifact and every appended line, whoever writes them', async () => {
    const directory = path.join(root, 'secret-lines');
    process.env.SKILLOPT_TEST_API_KEY = 'sk-test-0123456789abcdef';
    try {
      // A provider's error text quoting the key and a URL with credentials, as an event, a
      // ledger line or runtime_state.json could carry them.
      const leaky = { type: 'item-excluded', reason: 'HTTP 401 for key sk-test-0123456789abcdef at https://user:hunter22@proxy.test/v1' };
      const appender = createJsonLinesAppender(path.join(directory, 'events.jsonl'));
      await appender.append(leaky, { usage: { inputTokens: 3, outputTokens: 1 } });
      await appender.close();
      await writeJsonAtomic(path.join(directory, 'runtime_state.json'), { lastFailure: leaky.reason });
    } finally {
      delete process.env.SKILLOPT_TEST_API_KEY;
    }
    const lines = await readFile(path.join(directory, 'events.jsonl'), 'utf8');
    const state = await readFile(path.join(directory, 'runtime_state.json'), 'utf8');
    for (const text of [lines, state]) {
      expect(text).not.toContain('sk-test-0123456789abcdef');
      expect(text).not.toContain('hunter22');
    }
    expect(
      lines
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { type: 'item-excluded', reason: 'HTTP 401 for key [redacted] at https://[redacted]@proxy.test/v1' },
      { usage: { inputTokens: 3, outputTokens: 1 } },
    ]);
  });
});
