import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFixtureProject, type FixtureProject } from './helpers/fixture-project';
import { runSkillopt } from './helpers/command-runner';
import { expectHelp } from './helpers/help-manifest';
import { diffLines, splitLines, unifiedDiff } from '@skillopt/core';

interface HistoryRecord {
  step: number;
  outcome: string;
  gate?: { reason: string };
}

describe('skillopt runs', () => {
  let project: FixtureProject;
  const at = (...parts: string[]) => path.join(project.directory, ...parts);

  beforeAll(async () => {
    project = createFixtureProject();
    // A finished run, a run stopped by its budget, an unfinished run and a folder that is no run.
    const finished = await runSkillopt(['train', '--config', 'train.yaml', '--out', 'outputs/a-finished'], project.directory);
    expect(finished.error).toBeUndefined();
    await runSkillopt(['train', '--config', 'train.yaml', '--out', 'outputs/b-stopped', '--set', 'budget.optimizer.max_calls=1'], project.directory);
    cpSync(at('outputs', 'a-finished'), at('outputs', 'c-running'), { recursive: true });
    rmSync(at('outputs', 'c-running', 'summary.json'));
    const events = readFileSync(at('outputs', 'c-running', 'events.jsonl'), 'utf8').split('\n');
    writeFileSync(
      at('outputs', 'c-running', 'events.jsonl'),
      `${events
        .slice(
          0,
          events.findIndex((line) => line.includes('"step-finished"')),
        )
        .join('\n')}\n`,
    );
    // Its session still runs: the lock names a live process of this host (this one).
    const lock = {
      lockId: 'runs-test',
      pid: process.pid,
      hostname: os.hostname(),
      startedAt: new Date().toISOString(),
      command: 'skillopt train',
      purpose: 'training',
    };
    writeFileSync(at('outputs', 'c-running', 'skillopt.lock'), JSON.stringify(lock));
    // Three epochs: epoch-end slow updates change the skill too.
    await runSkillopt(
      ['train', '--config', 'train.yaml', '--out', 'outputs/d-long', '--set', 'train.num_epochs=3', '--set', 'backends.sim.seed=5'],
      project.directory,
    );
    mkdirSync(at('outputs', 'notes'));
    writeFileSync(at('outputs', 'notes', 'readme.txt'), 'not a run');
  });
  afterAll(() => project.remove());

  const history = (run: string): HistoryRecord[] =>
    readFileSync(at('outputs', run, 'history.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as HistoryRecord);

  describe('list', () => {
    it('lists each run directory with env, steps, scores and status', async () => {
      const { stdout, error } = await runSkillopt(['runs', 'list'], project.directory);
      expect(error).toBeUndefined();
      const lines = stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^run\s+env\s+steps\s+validation\s+test\s+status$/);
      const row = (name: string) => lines.find((line) => line.startsWith(path.join('outputs', name))) ?? '';
      expect(row('a-finished')).toMatch(/fixture\s+2\/2\s+\S+ → \S+\s+\S+ → \S+\s+finished$/);
      expect(row('b-stopped')).toMatch(/fixture\s+1\/2\s+.*stopped \(budget-spent\)$/);
      expect(row('c-running')).toMatch(/fixture\s+2\/2\s+.*—\s+in progress$/);
      expect(stdout).not.toContain('notes');
    });

    it('prints JSON with --json, and takes another folder with --dir', async () => {
      mkdirSync(at('elsewhere'), { recursive: true });
      cpSync(at('outputs', 'a-finished'), at('elsewhere', 'copy'), { recursive: true });
      const { stdout, error } = await runSkillopt(['runs', 'list', '--dir', 'elsewhere', '--json'], project.directory);
      expect(error).toBeUndefined();
      const runs = JSON.parse(stdout) as Array<{
        name: string;
        environment: string;
        status: string;
        stepsDone: number;
        stepsTotal: number;
        bestScore: number;
        test: unknown;
      }>;
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ name: path.join('elsewhere', 'copy'), environment: 'fixture', status: 'finished', stepsDone: 2, stepsTotal: 2 });
      expect(runs[0]?.test).not.toBeNull();
    });

    it('says so when a folder holds no runs, and exits 2 for a folder that does not exist', async () => {
      const empty = await runSkillopt(['runs', 'list', '--dir', 'outputs/notes'], project.directory);
      expect(empty.error).toBeUndefined();
      expect(empty.stdout).toContain('No run directories');
      const noOutputs = await runSkillopt(['runs', 'list'], at('outputs', 'notes'));
      expect(noOutputs.error).toBeUndefined();
      expect(noOutputs.stdout).toContain('No runs yet');
      const missing = await runSkillopt(['runs', 'list', '--dir', 'nowhere'], project.directory);
      expect(missing.error?.oclif?.exit).toBe(2);
      expect(missing.error?.message).toContain('nowhere');
    });

    it('keeps listing when one run is damaged', async () => {
      cpSync(at('outputs', 'a-finished'), at('damaged', 'broken'), { recursive: true });
      cpSync(at('outputs', 'a-finished'), at('damaged', 'fine'), { recursive: true });
      writeFileSync(at('damaged', 'broken', 'runtime_state.json'), '{ not json');
      const { stdout, error } = await runSkillopt(['runs', 'list', '--dir', 'damaged'], project.directory);
      expect(error).toBeUndefined();
      expect(stdout).toMatch(/damaged\/broken.*unreadable: .*runtime_state\.json/);
      expect(stdout).toMatch(/damaged\/fine.*finished/);
    });
  });

  describe('show', () => {
    it('shows the summary of a finished run and its step history', async () => {
      const { stdout, error } = await runSkillopt(['runs', 'show', 'outputs/a-finished'], project.directory);
      expect(error).toBeUndefined();
      expect(stdout).toMatch(/^ {2}run\s+\S+ \(finished\)$/m);
      expect(stdout).toMatch(/validation score\s+\S+ → \S+/);
      expect(stdout).toMatch(/test accuracy/);
      expect(stdout).toMatch(/^step\s+epoch\s+outcome\s+lr\s+gate \(candidate vs incumbent\)\s+reason$/m);
      for (const record of history('a-finished')) {
        expect(stdout).toMatch(new RegExp(`^${record.step}\\s+1\\s+${record.outcome}\\b`, 'm'));
        if (record.gate) expect(stdout).toContain(record.gate.reason);
      }
    });

    it('prints the same for a run whose events and files carry fields from a newer release', async () => {
      cpSync(at('outputs', 'a-finished'), at('outputs', 'e-newer'), { recursive: true });
      const withExtraFields = (value: unknown): unknown =>
        Array.isArray(value)
          ? value.map(withExtraFields)
          : typeof value === 'object' && value !== null
            ? { ...Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withExtraFields(item)])), addedLater: { by: 'a newer SkillOpt' } }
            : value;
      const eventsFile = at('outputs', 'e-newer', 'events.jsonl');
      const lines = readFileSync(eventsFile, 'utf8').trim().split('\n');
      writeFileSync(eventsFile, `${lines.map((line) => JSON.stringify(withExtraFields(JSON.parse(line)))).join('\n')}\n`);
      // In the files, a new field at the top of each document and of each history record (deeper
      // objects include maps, such as usage by role, where a new key would be a new entry).
      const topLevelExtra = (value: Record<string, unknown>) => ({ ...value, addedLater: { by: 'a newer SkillOpt' } });
      for (const file of ['summary.json', 'runtime_state.json']) {
        const filePath = at('outputs', 'e-newer', file);
        writeFileSync(filePath, JSON.stringify(topLevelExtra(JSON.parse(readFileSync(filePath, 'utf8')) as Record<string, unknown>)));
      }
      const historyFile = at('outputs', 'e-newer', 'history.jsonl');
      const records = readFileSync(historyFile, 'utf8').trim().split('\n');
      writeFileSync(historyFile, `${records.map((line) => JSON.stringify(topLevelExtra(JSON.parse(line) as Record<string, unknown>))).join('\n')}\n`);
      const original = await runSkillopt(['runs', 'show', 'outputs/a-finished'], project.directory);
      const newer = await runSkillopt(['runs', 'show', 'outputs/e-newer'], project.directory);
      expect(newer.error).toBeUndefined();
      expect(lines.length).toBeGreaterThan(50);
      expect(newer.stdout.replaceAll('e-newer', 'a-finished')).toBe(original.stdout);
      rmSync(at('outputs', 'e-newer'), { recursive: true });
    });

    it('reads a run directory of the previous format (history.json, ledger.json)', async () => {
      cpSync(path.join(__dirname, 'fixtures', 'format-1-run'), at('outputs', 'f-format-1'), { recursive: true });
      const { stdout, error } = await runSkillopt(['runs', 'show', 'outputs/f-format-1'], project.directory);
      expect(error).toBeUndefined();
      expect(stdout).toMatch(/^ {2}run\s+\S+ \(finished\)$/m);
      expect(stdout).toMatch(/validation score\s+0\.0% → 66\.7%/);
      expect(stdout).toMatch(/^1\s+1\s+accepted\b/m);
      expect(stdout).toMatch(/^2\s+1\s+accepted\b/m);
      const diff = await runSkillopt(['runs', 'diff', 'outputs/f-format-1'], project.directory);
      expect(diff.error).toBeUndefined();
      expect(diff.stdout).toContain('+++');
      const resumed = await runSkillopt(['train', '--resume', 'outputs/f-format-1'], project.directory);
      expect(resumed.error?.oclif?.exit).toBe(2);
      expect(resumed.error?.message).toMatch(/is in run-directory format 1, and this release resumes format 2 only/);
      rmSync(at('outputs', 'f-format-1'), { recursive: true });
    });

    it('shows the state so far of a stopped run, with the resume command', async () => {
      const { stdout, error } = await runSkillopt(['runs', 'show', 'outputs/b-stopped'], project.directory);
      expect(error).toBeUndefined();
      expect(stdout).toContain('(stopped: budget-spent)');
      expect(stdout).toContain('State so far');
      expect(stdout).toMatch(/steps\s+1 of 2 committed/);
      expect(stdout).toMatch(/resume with\s+skillopt train --resume/);
      expect(stdout).toContain('budget.optimizer.max_calls');
    });

    it('prints the overview and the records as JSON', async () => {
      const { stdout, error } = await runSkillopt(['runs', 'show', 'outputs/c-running', '--json'], project.directory);
      expect(error).toBeUndefined();
      const shown = JSON.parse(stdout) as { status: string; summary: unknown; history: HistoryRecord[]; state: { lastCompletedStep: number } };
      expect(shown.status).toBe('in progress');
      expect(shown.summary).toBeNull();
      expect(shown.history.map((record) => record.step)).toEqual(history('c-running').map((record) => record.step));
    });

    it('shows a run that committed nothing yet, which runs diff refuses', async () => {
      mkdirSync(at('fresh', 'run'), { recursive: true });
      cpSync(at('outputs', 'a-finished', 'config.json'), at('fresh', 'run', 'config.json'));
      const shown = await runSkillopt(['runs', 'show', 'fresh/run'], project.directory);
      expect(shown.error).toBeUndefined();
      expect(shown.stdout).toContain('(not started)');
      expect(shown.stdout).toContain('Nothing committed yet');
      const listed = await runSkillopt(['runs', 'list', '--dir', 'fresh'], project.directory);
      expect(listed.stdout).toMatch(/fresh\/run\s+fixture\s+0\/\?.*not started$/m);
      const diff = await runSkillopt(['runs', 'diff', 'fresh/run'], project.directory);
      expect(diff.error?.oclif?.exit).toBe(2);
      expect(diff.error?.message).toContain('no committed skill yet');
    });

    it('exits 2 for a directory that is not a run, or does not exist', async () => {
      const notRun = await runSkillopt(['runs', 'show', 'outputs/notes'], project.directory);
      expect(notRun.error?.oclif?.exit).toBe(2);
      expect(notRun.error?.message).toContain('is not a run directory');
      const missing = await runSkillopt(['runs', 'show', 'outputs/nothing-here'], project.directory);
      expect(missing.error?.oclif?.exit).toBe(2);
      expect(missing.error?.message).toContain('does not exist');
    });

    it('exits 2 without a directory and for an unknown flag', async () => {
      expect((await runSkillopt(['runs', 'show'], project.directory)).error?.oclif?.exit).toBe(2);
      expect((await runSkillopt(['runs', 'show', 'outputs/a-finished', '--verbose'], project.directory)).error?.oclif?.exit).toBe(2);
    });
  });

  describe('diff', () => {
    it('diffs the initial skill to the best, per accepted step with its gate decision', async () => {
      const records = history('a-finished');
      const accepted = records.filter((record) => record.outcome === 'accepted');
      expect(accepted.length).toBeGreaterThan(0);
      const { stdout, error } = await runSkillopt(['runs', 'diff', 'outputs/a-finished'], project.directory);
      expect(error).toBeUndefined();
      const state = JSON.parse(readFileSync(at('outputs', 'a-finished', 'runtime_state.json'), 'utf8')) as { best: { step: number } };
      for (const record of accepted.filter((entry) => entry.step <= state.best.step)) {
        expect(stdout).toContain(`== step ${record.step} (epoch 1): accepted by the strict gate`);
        expect(stdout).toContain(record.gate?.reason);
        expect(stdout).toContain(`+++ b/skills/skill_v${String(record.step).padStart(4, '0')}.md`);
      }
      expect(stdout).toContain('--- a/skills/skill_v0000.md');
      // Every added line of the diff is a line of the best skill.
      const best = splitLines(readFileSync(at('outputs', 'a-finished', 'best_skill.md'), 'utf8'));
      const added = stdout.split('\n').filter((line) => line.startsWith('+') && !line.startsWith('+++'));
      expect(added.length).toBeGreaterThan(0);
      for (const line of added) expect(best).toContain(line.slice(1));
    });

    it('takes --from/--to, --combined and --json', async () => {
      const { stdout, error } = await runSkillopt(
        ['runs', 'diff', 'outputs/a-finished', '--from', '0', '--to', '2', '--combined', '--json'],
        project.directory,
      );
      expect(error).toBeUndefined();
      const diff = JSON.parse(stdout) as { from: { step: number }; changes: Array<{ kind: string; diff: string; fromFile: string }> };
      expect(diff.from.step).toBe(0);
      expect(diff.changes).toHaveLength(1);
      expect(diff.changes[0]?.kind).toBe('combined');
      expect(diff.changes[0]?.fromFile).toBe('skills/skill_v0000.md');
    });

    it('lists epoch-end updates as changes, and ends at the current skill at the last step', async () => {
      const state = JSON.parse(readFileSync(at('outputs', 'd-long', 'runtime_state.json'), 'utf8')) as {
        lastCompletedStep: number;
        current: { skillPath: string };
      };
      const { stdout, error } = await runSkillopt(
        ['runs', 'diff', 'outputs/d-long', '--from', '0', '--to', String(state.lastCompletedStep), '--json'],
        project.directory,
      );
      expect(error).toBeUndefined();
      const diff = JSON.parse(stdout) as { to: { file: string }; changes: Array<{ kind: string; label: string; toFile: string }> };
      const slowUpdates = readdirSync(at('outputs', 'd-long', 'skills')).filter((name) => /^skill_epoch_\d+_slow_update\.md$/.test(name));
      for (const name of slowUpdates) {
        const epoch = Number(/epoch_(\d+)/.exec(name)?.[1]);
        expect(diff.changes).toContainEqual(
          expect.objectContaining({ kind: 'epoch-end', label: `the slow update at the end of epoch ${epoch}`, toFile: `skills/${name}` }),
        );
      }
      expect(diff.to.file).toBe(state.current.skillPath);
      const combined = await runSkillopt(['runs', 'diff', 'outputs/d-long', '--to', String(state.lastCompletedStep), '--combined'], project.directory);
      expect(combined.error).toBeUndefined();
      const initial = readFileSync(at('outputs', 'd-long', 'skills', 'skill_v0000.md'), 'utf8');
      const current = readFileSync(at('outputs', 'd-long', state.current.skillPath), 'utf8');
      expect(applyUnifiedDiff(initial, combined.stdout)).toEqual(splitLines(current));
    });

    it('exits 2 for versions the run does not have, a reversed range and a non-run directory', async () => {
      const tooFar = await runSkillopt(['runs', 'diff', 'outputs/a-finished', '--to', '99'], project.directory);
      expect(tooFar.error?.oclif?.exit).toBe(2);
      expect(tooFar.error?.message).toContain('steps 0 to 2');
      const reversed = await runSkillopt(['runs', 'diff', 'outputs/a-finished', '--from', '2', '--to', '1'], project.directory);
      expect(reversed.error?.oclif?.exit).toBe(2);
      const negative = await runSkillopt(['runs', 'diff', 'outputs/a-finished', '--from', '-1'], project.directory);
      expect(negative.error?.oclif?.exit).toBe(2);
      const notRun = await runSkillopt(['runs', 'diff', 'outputs/notes'], project.directory);
      expect(notRun.error?.oclif?.exit).toBe(2);
      expect(notRun.error?.message).toContain('is not a run directory');
    });

    it('has a summary, a description and examples for --help', () => {
      expectHelp('runs:list', ['dir', 'json']);
      expectHelp('runs:show', ['json']);
      expectHelp('runs:diff', ['from', 'to', 'combined', 'json']);
    });
  });
});

/** Applies the hunks of a unified diff (as printed, other lines ignored) to a text: the lines of the result. */
function applyUnifiedDiff(text: string, diff: string): string[] {
  const source = splitLines(text);
  const result: string[] = [];
  let next = 0;
  const lines = diff.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const header = /^@@ -(\d+),(\d+) \+\d+,\d+ @@$/.exec(lines[index] ?? '');
    if (!header) continue;
    const start = Number(header[2]) === 0 ? Number(header[1]) : Number(header[1]) - 1;
    result.push(...source.slice(next, start));
    next = start;
    for (index += 1; index < lines.length && /^[ +-]/.test(lines[index] ?? '') && !(lines[index] ?? '').startsWith('--- '); index += 1) {
      const line = lines[index] as string;
      if (line.startsWith('+')) result.push(line.slice(1));
      else {
        expect(source[next]).toBe(line.slice(1));
        if (line.startsWith(' ')) result.push(line.slice(1));
        next += 1;
      }
    }
    index -= 1;
  }
  return [...result, ...source.slice(next)];
}

describe('the line differ', () => {
  it('finds the longest common subsequence of lines', () => {
    expect(diffLines(['a', 'b', 'c', 'd'], ['a', 'c', 'x', 'd'])).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'same', text: 'c' },
      { kind: 'added', text: 'x' },
      { kind: 'same', text: 'd' },
    ]);
    expect(diffLines([], ['a'])).toEqual([{ kind: 'added', text: 'a' }]);
    expect(diffLines(['a'], [])).toEqual([{ kind: 'removed', text: 'a' }]);
  });

  it('prints unified hunks with three lines of context and correct ranges', () => {
    const before = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`);
    const after = [...before];
    after[1] = 'changed 2';
    after.splice(15, 1);
    const diff = unifiedDiff(`${before.join('\n')}\n`, `${after.join('\n')}\n`, { fromName: 'a/x', toName: 'b/x' });
    expect(diff.added).toBe(1);
    expect(diff.removed).toBe(2);
    expect(diff.text).toBe(
      [
        '--- a/x',
        '+++ b/x',
        '@@ -1,5 +1,5 @@',
        ' line 1',
        '-line 2',
        '+changed 2',
        ' line 3',
        ' line 4',
        ' line 5',
        '@@ -13,7 +13,6 @@',
        ' line 13',
        ' line 14',
        ' line 15',
        '-line 16',
        ' line 17',
        ' line 18',
        ' line 19',
        '',
      ].join('\n'),
    );
  });

  it('gives nothing for equal texts and handles an empty side', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n', { fromName: 'a', toName: 'b' }).text).toBe('');
    expect(unifiedDiff('', 'x\n', { fromName: 'a', toName: 'b' }).text).toBe('--- a\n+++ b\n@@ -0,0 +1,1 @@\n+x\n');
  });

  it('prints diffs that apply: random edits round-trip', () => {
    let seed = 7;
    const random = (limit: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % limit;
    };
    for (let round = 0; round < 50; round += 1) {
      const before = Array.from({ length: random(30) }, () => `line ${random(8)}`);
      const after = [...before];
      for (let edit = random(6); edit > 0; edit -= 1) {
        if (after.length > 0 && random(2) === 0) after.splice(random(after.length), 1);
        else after.splice(random(after.length + 1), 0, `new ${random(5)}`);
      }
      const diff = unifiedDiff(before.map((line) => `${line}\n`).join(''), after.map((line) => `${line}\n`).join(''), { fromName: 'a', toName: 'b' });
      expect(applyUnifiedDiff(before.map((line) => `${line}\n`).join(''), diff.text)).toEqual(after);
    }
  });

  it('reconstructs both texts from its script', () => {
    const before = 'one\ntwo\nthree\nfour\nfive\n'.split('\n');
    const after = 'zero\none\nthree\nfour\n4.5\nfive\n'.split('\n');
    const script = diffLines(before, after);
    expect(script.filter((line) => line.kind !== 'added').map((line) => line.text)).toEqual(before);
    expect(script.filter((line) => line.kind !== 'removed').map((line) => line.text)).toEqual(after);
  });
});
