import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GenerateRequest, TaskItem } from '@skillopt/contract';
import type { HandoffIndex } from '@skillopt/backends-handoff';
import { createBackend as createSimBackend } from '@skillopt/backends-sim';
import { createEnvironment } from '@skillopt/env-searchqa';
import { runSkillopt } from './helpers/command-runner';

// Issue 22: a training with the handoff backend as the target. Each `skillopt train` writes every
// request it can reach and exits 3; this test then plays the user's agent — it answers the waiting
// requests with the simulator, as `target_backend: sim` would have — and resumes, until the run
// finishes with the same best skill as the simulator's own run of the same config. The config
// names no handoff folder: the requests wait in the run directory's handoff/, which --resume reopens.

const repository = path.resolve(__dirname, '..', '..', '..');
const demoData = path.join(repository, 'datasets', 'demo');

function config(targetBackend: 'handoff' | 'sim', optimizerBackend: 'handoff' | 'sim' = 'sim'): string {
  return [
    `_base_: ${path.join(repository, 'configs', 'demo', 'default.yaml')}`,
    'model:',
    `  target_backend: ${targetBackend}`,
    `  optimizer_backend: ${optimizerBackend}`,
    'train:',
    '  num_epochs: 1',
    '  train_size: 4',
    '  batch_size: 2',
    'evaluation:',
    '  sel_env_num: 4',
    '  test_env_num: 4',
    'env:',
    `  split_dir: ${demoData}`,
    '',
  ].join('\n');
}

let project: string;
beforeEach(() => {
  project = mkdtempSync(path.join(os.tmpdir(), 'skillopt-handoff-'));
  writeFileSync(path.join(project, 'handoff.yaml'), config('handoff'));
  writeFileSync(path.join(project, 'handoff-both.yaml'), config('handoff', 'handoff'));
  writeFileSync(path.join(project, 'sim.yaml'), config('sim'));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

const train = (configFile = 'handoff.yaml') => runSkillopt(['train', '--config', configFile, '--out', 'run'], project);
const resume = () => runSkillopt(['train', '--resume', 'run'], project);
const handoffFolder = () => path.join(project, 'run', 'handoff');
const index = (): HandoffIndex => JSON.parse(readFileSync(path.join(handoffFolder(), 'index.json'), 'utf8')) as HandoffIndex;

/** The user's agent: the simulator the demo config describes, knowing every item, as `sim` would be in process. */
async function simulatedAgent() {
  const environment = await createEnvironment({ split_mode: 'split_dir', split_dir: demoData, max_turns: 1 });
  const items: TaskItem[] = (await Promise.all((['train', 'val', 'test'] as const).map((split) => environment.loadSplit(split)))).flat();
  const backend = createSimBackend({});
  await backend.simulator.receiveTaskItems(items);
  const models = {
    target: backend.createChatModel({ role: 'target', modelId: 'sim-target' }),
    optimizer: backend.createChatModel({ role: 'optimizer', modelId: 'sim-optimizer' }),
  };
  return {
    /** Answers the waiting requests (all, or those `which` keeps); returns how many it answered. */
    async answer(which: (id: string) => boolean = () => true): Promise<number> {
      let answered = 0;
      for (const entry of index().pending.filter((pending) => which(pending.id))) {
        const request = JSON.parse(readFileSync(path.join(handoffFolder(), entry.requestFile), 'utf8')) as GenerateRequest;
        const reply = await models[entry.role === 'optimizer' ? 'optimizer' : 'target'].generate({ messages: request.messages, purpose: request.purpose });
        mkdirSync(path.join(handoffFolder(), 'answers'), { recursive: true });
        writeFileSync(path.join(handoffFolder(), entry.answerFile), reply.text);
        answered += 1;
      }
      return answered;
    },
  };
}

describe('skillopt train with the handoff backend as the target', () => {
  it.each([
    ['the target', 'handoff.yaml'],
    ['the target and the optimizer', 'handoff-both.yaml'],
  ])(
    'as %s: stops with exit 3 at each batch of waiting requests, resumes with their answers, and ends with the simulator run’s best skill',
    async (_roles, configFile) => {
      const agent = await simulatedAgent();
      const first = await train(configFile);
      expect(first.error?.oclif?.exit).toBe(3);
      expect(first.error?.message).toMatch(/\d+ requests wait for an answer in /);
      expect(first.error?.message).toContain(`in ${handoffFolder()} (listed in its index.json)`);
      expect(first.error?.message).toContain('skillopt train --resume run');
      // Nothing lands in the project beside the configs and the run directory.
      expect(readdirSync(project).sort()).toEqual(['handoff-both.yaml', 'handoff.yaml', 'run', 'sim.yaml']);
      // The baseline and step 1's batch roll out together: every one of their requests is written at once.
      expect(index().pending).toHaveLength(4 + 2);

      // A resume with no new answers stops again, at the same requests, and loses nothing.
      const before = index()
        .pending.map((entry) => entry.id)
        .sort();
      expect((await resume()).error?.oclif?.exit).toBe(3);
      expect(
        index()
          .pending.map((entry) => entry.id)
          .sort(),
      ).toEqual(before);

      // A missing answer: only that request waits on.
      const [missing] = before;
      expect(await agent.answer((id) => id !== missing)).toBe(before.length - 1);
      expect((await resume()).error?.oclif?.exit).toBe(3);
      expect(index().pending.map((entry) => entry.id)).toEqual([missing]);

      let rounds = 0;
      for (;;) {
        await agent.answer();
        const next = await resume();
        rounds += 1;
        if (next.error === undefined) break;
        expect(next.error.oclif?.exit).toBe(3);
        if (rounds > 12) throw new Error('the run did not finish in 12 rounds of answers');
      }
      expect(index().pending).toEqual([]);
      // The run trained: the gate took a candidate, so the best skill is not the initial one.
      const summary = JSON.parse(readFileSync(path.join(project, 'run', 'summary.json'), 'utf8')) as { acceptedCandidates: number };
      expect(summary.acceptedCandidates).toBeGreaterThanOrEqual(1);
      expect(rounds).toBeGreaterThanOrEqual(2);
      const reference = await runSkillopt(['train', '--config', 'sim.yaml', '--out', 'reference'], project);
      expect(reference.error).toBeUndefined();
      expect(readFileSync(path.join(project, 'run', 'best_skill.md'), 'utf8')).toBe(readFileSync(path.join(project, 'reference', 'best_skill.md'), 'utf8'));
      const events = readFileSync(path.join(project, 'run', 'events.jsonl'), 'utf8');
      expect(events).toContain('"reason":"answer-pending"');
    },
    120_000,
  );

  it('reports an answer that cannot be used with its file name, and waits for it again', async () => {
    const first = await train();
    expect(first.error?.oclif?.exit).toBe(3);
    const [entry] = index().pending;
    mkdirSync(path.join(handoffFolder(), 'answers'), { recursive: true });
    writeFileSync(path.join(handoffFolder(), entry!.answerFile), '   \n');
    const again = await resume();
    expect(again.error?.oclif?.exit).toBe(3);
    expect(again.error?.message).toContain(`${entry!.answerFile}: it is empty`);
    expect(index().pending).toContainEqual(expect.objectContaining({ id: entry!.id, problem: `${entry!.answerFile}: it is empty` }));
    expect(existsSync(path.join(project, 'run', 'best_skill.md'))).toBe(false);
  });

  it('keeps a folder the config names across resumes, as a run started when the default was skillopt-handoff does', async () => {
    const named = path.join(project, 'skillopt-handoff');
    const first = await runSkillopt(['train', '--config', 'handoff.yaml', '--out', 'run', '--set', 'backends.handoff.directory=skillopt-handoff'], project);
    expect(first.error?.oclif?.exit).toBe(3);
    expect(first.error?.message).toContain(`in ${named} (listed in its index.json)`);
    // The run's config.json names the folder, so the resume needs no --set to find it.
    const again = await resume();
    expect(again.error?.oclif?.exit).toBe(3);
    expect(again.error?.message).toContain(`in ${named} (listed in its index.json)`);
    expect(existsSync(handoffFolder())).toBe(false);
  });
});
