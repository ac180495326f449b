import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createFixtureProject, defaultConfig, type FixtureProject } from './helpers/fixture-project';
import { runSkillopt } from './helpers/command-runner';
import { expectHelp } from './helpers/help-manifest';

const ORIGINAL = path.join(__dirname, 'fixtures', 'original');
/** Warnings as one line of text: whitespace (and any oclif ` › ` margins) collapsed. */
const unwrap = (text: string) => text.replace(/\s*›\s*/g, ' ').replace(/\s+/g, ' ');

interface PrintedJson {
  config: { env: Record<string, unknown>; model: Record<string, unknown>; train: Record<string, unknown>; backends: Record<string, unknown> };
  sources: Record<string, { kind: string; path?: string; includedBy?: string; text?: string; description: string }>;
  warnings: Array<{ code: string; path?: string; message: string }>;
  files: string[];
  originalFormat: boolean;
  packages: Array<{ kind: string; name: string; packageName?: string; problem?: string; installCommand?: string }>;
  complete: boolean;
}

describe('skillopt config print', () => {
  let project: FixtureProject;
  beforeEach(() => {
    project = createFixtureProject();
  });
  afterEach(() => project.remove());

  it('prints the resolved config as YAML with the source of every value', async () => {
    const { stdout, error } = await runSkillopt(['config', 'print', '--config', 'train.yaml', '--set', 'train.num_epochs=3'], project.directory);
    expect(error).toBeUndefined();
    expect(stdout).toMatch(/^ {2}num_epochs: 3\s+# --set train\.num_epochs=3$/m);
    expect(stdout).toMatch(/^ {2}batch_size: 4\s+# train\.yaml$/m);
    expect(stdout).toMatch(/^ {2}seed: 42\s+# default$/m);
    // The env package's own key, with the package's default: validated against the fixture package.
    expect(stdout).toMatch(/^ {2}flavour: plain\s+# default$/m);
    // The backend package's defaults too.
    expect(stdout).toMatch(/^ {4}noise: [\d.]+\s+# default$/m);
    expect(stdout).toMatch(/^ {2}split_ratio: "2:1:7"\s+# default$/m);
  });

  it('names the _base_ file and the file that included it', async () => {
    writeFileSync(path.join(project.directory, 'base.yaml'), defaultConfig());
    writeFileSync(path.join(project.directory, 'child.yaml'), '_base_: base.yaml\ntrain:\n  batch_size: 2\n');
    const { stdout, error } = await runSkillopt(['config', 'print', '-c', 'child.yaml'], project.directory);
    expect(error).toBeUndefined();
    expect(stdout).toMatch(/^ {2}batch_size: 2\s+# child\.yaml$/m);
    expect(stdout).toMatch(/^ {2}num_epochs: 1\s+# base\.yaml \(_base_ of child\.yaml\)$/m);
  });

  it('prints config, sources and warnings as JSON', async () => {
    const { stdout, error } = await runSkillopt(['config', 'print', '-c', 'train.yaml', '--set', 'train.seed=7', '--json'], project.directory);
    expect(error).toBeUndefined();
    const printed = JSON.parse(stdout) as PrintedJson;
    expect(printed.config.train.seed).toBe(7);
    expect(printed.sources['train.seed']).toEqual({ kind: 'override', text: 'train.seed=7', description: '--set train.seed=7' });
    expect(printed.sources['train.batch_size']).toMatchObject({ kind: 'file', path: project.configFile });
    expect(printed.sources['train.accumulation']).toMatchObject({ kind: 'default', description: 'default' });
    expect(printed.complete).toBe(true);
    expect(printed.packages.map((found) => found.name).sort()).toEqual(['fixture', 'sim']);
  });

  it('prints a searchqa config in the original format, resolved with the real @skillopt/env-searchqa', async () => {
    const file = path.join(ORIGINAL, 'searchqa', 'default.yaml');
    const base = path.join(ORIGINAL, '_base_', 'default.yaml');
    const text = await runSkillopt(['config', 'print', '--config', file], project.directory);
    expect(text.error).toBeUndefined();
    expect(text.stdout).toContain("original SkillOpt's format");
    expect(text.stdout).toMatch(/^ {2}name: searchqa\s+# .*searchqa\/default\.yaml$/m);
    expect(text.stdout).toMatch(/^ {2}train_size: 400\s+# .*searchqa\/default\.yaml$/m);
    expect(text.stdout).toMatch(/^ {2}num_epochs: 4\s+# .*_base_\/default\.yaml \(_base_ of .*searchqa\/default\.yaml\)$/m);
    // Translated: the alias `edits` is `patch`, the original's backend is ours.
    expect(text.stdout).toMatch(/^ {2}skill_update_mode: patch\s+#/m);
    expect(text.stdout).toMatch(/^ {2}target_backend: openai\s+#/m);
    const warnings = unwrap(text.stderr);
    expect(warnings).toContain('gradient.max_analyst_rounds is retired');
    // The env package is installed with the CLI, so the env section is validated…
    expect(warnings).not.toMatch(/env package "searchqa" is not installed/);

    const json = await runSkillopt(['config', 'print', '--config', file, '--json'], project.directory);
    const printed = JSON.parse(json.stdout) as PrintedJson;
    expect(printed.originalFormat).toBe(true);
    expect(printed.config.env.name).toBe('searchqa');
    // A key only @skillopt/env-searchqa knows, with its default: the package's schema validated env.
    expect(printed.config.env.max_context_chars).toEqual(expect.any(Number));
    expect(printed.sources['env.max_context_chars']?.kind).toBe('default');
    expect(printed.config.env.max_turns).toBe(1);
    expect(printed.packages.find((found) => found.kind === 'env')).toMatchObject({ name: 'searchqa', packageName: '@skillopt/env-searchqa' });
    // The openai backend (the original's openai_chat) may or may not be installed beside the CLI;
    // when it is not, the warning names the npm install that fixes it.
    const backend = printed.packages.find((found) => found.kind === 'backend');
    expect(backend?.name).toBe('openai');
    if (backend?.problem !== undefined) {
      expect(backend.installCommand).toBe('npm install @skillopt/backends-openai');
      expect(warnings).toContain('npm install @skillopt/backends-openai');
      expect(printed.complete).toBe(false);
    }
    expect(printed.sources['train.num_epochs']).toMatchObject({ kind: 'file', path: base, includedBy: file });
    expect(printed.files).toEqual([base, file]);
  });

  it("prints the original's spreadsheetbench config, its env section validated by @skillopt/env-spreadsheetbench", async () => {
    const file = path.join(ORIGINAL, 'spreadsheetbench', 'default.yaml');
    const { stdout, stderr, error } = await runSkillopt(['config', 'print', '--config', file], project.directory);
    expect(error).toBeUndefined();
    expect(stdout).toMatch(/^ {2}name: spreadsheetbench\s+#/m);
    // The original's env keys are the package's own, so the section is validated and completed with its defaults.
    expect(stdout).toMatch(/^ {2}mode: multi\s+# .*spreadsheetbench\/default\.yaml$/m);
    expect(stdout).toMatch(/^ {2}max_turns: 30\s+#/m);
    expect(stdout).toMatch(/^ {2}sandbox: bubblewrap\s+# default$/m);
    expect(stdout).not.toContain('# Not validated: env');
    // The role-specific Qwen keys moved to the backend's target section.
    expect(stdout).toMatch(/^ {6}base_url: http:\/\/localhost:8000\/v1\s+#/m);
    const warnings = unwrap(stderr);
    expect(warnings).not.toContain('not published yet');
    expect(warnings).toContain('train.steps_per_epoch is retired');
    expect(warnings).toContain('TARGET_QWEN_CHAT_API_KEY');
    // The API key written in the file is dropped, never printed.
    expect(stdout + stderr).not.toContain('local-not-a-real-key');
  });

  it("loads each of the original's six benchmark configs with every package it names installed: nothing passed through unvalidated", async () => {
    const benchmarks = ['alfworld', 'docvqa', 'livemathematicianbench', 'officeqa', 'searchqa', 'spreadsheetbench'];
    for (const benchmark of benchmarks) {
      const file = path.join(ORIGINAL, benchmark, 'default.yaml');
      const { stdout, stderr, error } = await runSkillopt(['config', 'print', '--config', file, '--json'], project.directory);
      expect({ benchmark, error }).toEqual({ benchmark, error: undefined });
      const printed = JSON.parse(stdout) as PrintedJson;
      expect(printed.originalFormat).toBe(true);
      const environment = printed.packages.find((found) => found.kind === 'env');
      const ourName = benchmark === 'livemathematicianbench' ? 'livemath' : benchmark;
      expect(environment).toMatchObject({ name: ourName, packageName: `@skillopt/env-${ourName}` });
      expect({ benchmark, problems: printed.packages.filter((found) => found.problem !== undefined) }).toEqual({ benchmark, problems: [] });
      expect({ benchmark, warnings: unwrap(stderr) }).not.toEqual({ benchmark, warnings: expect.stringMatching(/not installed|passed through unvalidated/) });
    }
  });

  it('never prints a credential hidden in a value or in the --set that gave it', async () => {
    const url = 'http://user:sk-SECRET999999aaaaaaaaaaaaaa@127.0.0.1:1/v1?api-key=zzzSECRET';
    for (const format of [[], ['--json']]) {
      const { stdout } = await runSkillopt(
        ['config', 'print', '-c', 'train.yaml', '--set', `backends.sim.seed=4`, '--set', `env.flavour=${url}`, ...format],
        project.directory,
      );
      expect(stdout).toContain('127.0.0.1:1/v1');
      expect(stdout).not.toContain('SECRET');
    }
  });

  it('exits 2 for an invalid key, naming the nearest one', async () => {
    writeFileSync(project.configFile, defaultConfig().replace('batch_size', 'batch_sise'));
    const { error } = await runSkillopt(['config', 'print', '-c', 'train.yaml'], project.directory);
    expect(error?.oclif?.exit).toBe(2);
    expect(error?.message).toContain('batch_size');
  });

  it('exits 2 for a missing config file and for an unknown flag', async () => {
    expect((await runSkillopt(['config', 'print', '-c', 'nope.yaml'], project.directory)).error?.oclif?.exit).toBe(2);
    expect((await runSkillopt(['config', 'print', '-c', 'train.yaml', '--yaml'], project.directory)).error?.oclif?.exit).toBe(2);
  });

  it('has a summary, a description and examples for --help', () => {
    expectHelp('config:print', ['config', 'set', 'cfg-options', 'json']);
  });
});
