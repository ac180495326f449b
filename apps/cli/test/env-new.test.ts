import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { runSkillopt } from './helpers/command-runner';

const cliRoot = path.resolve(__dirname, '..');
const workspaceRoot = path.resolve(cliRoot, '..', '..');

const EXPECTED_FILES = [
  '.gitignore',
  'README.md',
  'configs/example.yaml',
  'data/test/items.json',
  'data/train/items.json',
  'data/val/items.json',
  'package.json',
  'skills/initial.md',
  'src/config.js',
  'src/index.js',
  'src/scoring.js',
  'test/conformance.test.js',
  'test/scoring.test.js',
];

function listFiles(directory: string, prefix = ''): string[] {
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.name !== 'node_modules')
    .flatMap((entry) => (entry.isDirectory() ? listFiles(path.join(directory, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`]))
    .sort();
}

function versionOf(anchor: string, packageName: string): string {
  const file = createRequire(anchor).resolve(`${packageName}/package.json`);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

function directoryOf(anchor: string, packageName: string): string {
  return path.dirname(createRequire(anchor).resolve(`${packageName}/package.json`));
}

/**
 * Stands in for `npm install` without a network: links the workspace's built contract and env-kit,
 * the CLI's zod and the workspace's Jest into the scaffold's node_modules, where npm would put them.
 */
function linkDependencies(packageDirectory: string): void {
  const cliAnchor = path.join(cliRoot, 'package.json');
  const coreAnchor = path.join(directoryOf(cliAnchor, '@skillopt/core'), 'package.json');
  const links: Array<[string, string]> = [
    ['@skillopt/contract', directoryOf(cliAnchor, '@skillopt/contract')],
    ['@skillopt/env-kit', directoryOf(coreAnchor, '@skillopt/env-kit')],
    ['zod', directoryOf(cliAnchor, 'zod')],
    ['jest', directoryOf(path.join(workspaceRoot, 'package.json'), 'jest')],
  ];
  for (const [name, target] of links) {
    const link = path.join(packageDirectory, 'node_modules', ...name.split('/'));
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(target, link, 'dir');
  }
}

describe('skillopt env new', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-env-new-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('writes skillopt-env-<name> with the package name, manifest id and dependency ranges', async () => {
    const { stdout, error } = await runSkillopt(['env', 'new', 'demo-bench'], directory);
    expect(error).toBeUndefined();
    const packageDirectory = path.join(directory, 'skillopt-env-demo-bench');
    expect(listFiles(packageDirectory)).toEqual(EXPECTED_FILES);
    expect(stdout).toContain('Wrote skillopt-env-demo-bench (env id "demo-bench")');
    expect(stdout).toContain('npm test');

    const manifest = JSON.parse(readFileSync(path.join(packageDirectory, 'package.json'), 'utf8')) as {
      name: string;
      scripts: { test: string };
      files: string[];
      [field: string]: unknown;
    };
    const cliAnchor = path.join(cliRoot, 'package.json');
    const coreAnchor = path.join(directoryOf(cliAnchor, '@skillopt/core'), 'package.json');
    expect(manifest).toMatchObject({
      name: 'skillopt-env-demo-bench',
      type: 'module',
      exports: { '.': './src/index.js' },
      dependencies: {
        '@skillopt/contract': `^${versionOf(cliAnchor, '@skillopt/contract')}`,
        '@skillopt/env-kit': `^${versionOf(coreAnchor, '@skillopt/env-kit')}`,
        zod: `^${versionOf(cliAnchor, 'zod')}`,
      },
      devDependencies: { jest: '30.5.2' },
    });
    expect(manifest.scripts.test).toContain('jest');
    expect(manifest.files).toEqual(expect.arrayContaining(['src', 'data', 'skills']));

    const source = readFileSync(path.join(packageDirectory, 'src', 'index.js'), 'utf8');
    expect(source).toContain("export const ENVIRONMENT_ID = 'demo-bench';");
    expect(source).toMatch(/export const manifest = \{\s*kind: 'env',\s*id: ENVIRONMENT_ID,\s*specificationVersion: 'v1',\s*configSchema,/);
    expect(source).toContain("import { loadSplitItems } from '@skillopt/env-kit';");
    expect(readFileSync(path.join(packageDirectory, 'src', 'config.js'), 'utf8')).toContain('z.strictObject(');
    expect(readFileSync(path.join(packageDirectory, 'src', 'scoring.js'), 'utf8')).toMatch(/exactMatch, extractTaggedAnswer, tokenF1/);

    const conformance = readFileSync(path.join(packageDirectory, 'test', 'conformance.test.js'), 'utf8');
    expect(conformance).toContain("import { describeEnvironmentConformance } from '@skillopt/env-kit/conformance';");
    expect(conformance).toContain('describeEnvironmentConformance({');

    const config = readFileSync(path.join(packageDirectory, 'configs', 'example.yaml'), 'utf8');
    expect(config).toMatch(/target_backend: sim\n\s+optimizer_backend: sim/);
    expect(config).toMatch(/env:\n\s+name: demo-bench\n/);
    expect(readFileSync(path.join(packageDirectory, 'README.md'), 'utf8')).toContain('npm install skillopt-env-demo-bench');
  });

  it('ships a 6/3/3 dataset of valid items with unique ids', async () => {
    await runSkillopt(['env', 'new', 'trivia'], directory);
    const sizes: number[] = [];
    const ids = new Set<string>();
    for (const split of ['train', 'val', 'test']) {
      const items = JSON.parse(readFileSync(path.join(directory, 'skillopt-env-trivia', 'data', split, 'items.json'), 'utf8')) as Array<
        Record<string, unknown>
      >;
      sizes.push(items.length);
      for (const item of items) {
        expect(typeof item.question).toBe('string');
        expect(Array.isArray(item.answers) && item.answers.length > 0).toBe(true);
        ids.add(item.id as string);
      }
    }
    expect(sizes).toEqual([6, 3, 3]);
    expect(ids.size).toBe(12);
  });

  it('writes to --directory', async () => {
    const { error } = await runSkillopt(['env', 'new', 'trivia', '--directory', 'packages/env-trivia'], directory);
    expect(error).toBeUndefined();
    expect(existsSync(path.join(directory, 'packages', 'env-trivia', 'src', 'index.js'))).toBe(true);
    expect(existsSync(path.join(directory, 'skillopt-env-trivia'))).toBe(false);
  });

  it.each([['Demo'], ['demo_bench'], ['-demo'], ['demo-'], ['demo--bench'], ['demo.bench'], ['skillopt-env-demo']])(
    'refuses the name %j with exit 2 and writes nothing',
    async (name) => {
      // `--` so that a name starting with a dash reaches the command instead of the flag parser.
      const { error } = await runSkillopt(['env', 'new', '--', name], directory);
      expect(error?.oclif?.exit).toBe(2);
      expect(error?.message).toMatch(/invalid env name|short name/);
      expect(readdirSync(directory)).toEqual([]);
    },
  );

  it('refuses a non-empty directory with exit 2, and writes into it with --force', async () => {
    const target = path.join(directory, 'skillopt-env-demo-bench');
    mkdirSync(target);
    writeFileSync(path.join(target, 'notes.txt'), 'mine');
    const refused = await runSkillopt(['env', 'new', 'demo-bench'], directory);
    expect(refused.error?.oclif?.exit).toBe(2);
    expect(refused.error?.message).toContain('not empty');
    expect(refused.error?.message).toContain('--force');
    expect(readdirSync(target)).toEqual(['notes.txt']);

    const forced = await runSkillopt(['env', 'new', 'demo-bench', '--force'], directory);
    expect(forced.error).toBeUndefined();
    expect(readFileSync(path.join(target, 'notes.txt'), 'utf8')).toBe('mine');
    expect(existsSync(path.join(target, 'package.json'))).toBe(true);
  });

  it('writes into an empty existing directory without --force', async () => {
    mkdirSync(path.join(directory, 'empty'));
    const { error } = await runSkillopt(['env', 'new', 'demo-bench', '-d', 'empty'], directory);
    expect(error).toBeUndefined();
    expect(existsSync(path.join(directory, 'empty', 'package.json'))).toBe(true);
  });

  describe('the written package, with its dependencies linked from the workspace', () => {
    let packageDirectory: string;
    beforeEach(async () => {
      const { error } = await runSkillopt(['env', 'new', 'demo-bench'], directory);
      expect(error).toBeUndefined();
      packageDirectory = path.join(directory, 'skillopt-env-demo-bench');
      linkDependencies(packageDirectory);
    });

    it('is valid JavaScript that loads as an env package, from ESM and from CommonJS', () => {
      const script = [
        "import { describeEnvironmentPackageProblem } from '@skillopt/contract';",
        "import * as entry from 'skillopt-env-demo-bench';",
        "import { createRequire } from 'node:module';",
        'const problem = describeEnvironmentPackageProblem(entry);',
        'if (problem !== undefined) throw new Error(problem);',
        "const required = createRequire(process.cwd() + '/package.json')('skillopt-env-demo-bench');",
        "if (required.manifest.id !== 'demo-bench') throw new Error('require gave ' + JSON.stringify(Object.keys(required)));",
        'const environment = entry.createEnvironment();',
        "const items = await environment.loadSplit('train');",
        'console.log(JSON.stringify({ id: entry.manifest.id, kind: entry.manifest.kind, train: items.length, skill: (await environment.initialSkill()).length > 0 }));',
      ].join('\n');
      // The package imports its own name: the self-reference `skillopt train` relies on in this directory.
      const output = execFileSync(process.execPath, ['--input-type=module', '--no-warnings', '-e', script], {
        cwd: packageDirectory,
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '' },
      });
      expect(JSON.parse(output)).toEqual({ id: 'demo-bench', kind: 'env', train: 6, skill: true });
    });

    it("passes its own tests (npm test: the conformance suite and the scorer's tests)", () => {
      const manifest = JSON.parse(readFileSync(path.join(packageDirectory, 'package.json'), 'utf8')) as { scripts: { test: string } };
      const [command, ...args] = manifest.scripts.test.split(' ');
      expect(command).toBe('node');
      // Nx forces colours on for the tasks it runs (FORCE_COLOR); the scaffold's Jest must not colour its summary.
      const environment: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '', FORCE_COLOR: '0' };
      delete environment.JEST_WORKER_ID;
      const result = spawnSync(process.execPath, [...args, '--ci', '--colors=false', '--verbose'], {
        cwd: packageDirectory,
        encoding: 'utf8',
        env: environment,
      });
      const report = result.stderr.replace(/\u001b\[[0-9;]*m/g, '');
      expect(report).toMatch(/Tests:\s+\d+ passed, \d+ total/);
      expect(report).not.toMatch(/failed/);
      expect(report).toContain('conforms to the SkillOpt Environment contract');
      expect(result.status).toBe(0);
    });

    it('trains with skillopt train on the simulated model, the env found by its name from its own directory', async () => {
      const { stdout, error } = await runSkillopt(
        ['train', '--config', 'configs/example.yaml', '--set', 'train.num_epochs=1', '--out', 'run'],
        packageDirectory,
      );
      expect(error).toBeUndefined();
      expect(stdout).toContain('Training on demo-bench');
      expect(stdout).toContain('SIMULATED model');
      expect(existsSync(path.join(packageDirectory, 'run', 'best_skill.md'))).toBe(true);
      const config = JSON.parse(readFileSync(path.join(packageDirectory, 'run', 'config.json'), 'utf8')) as { env: Record<string, unknown> };
      expect(config.env).toMatchObject({ name: 'demo-bench', limit: 0, max_completion_tokens: 1024 });
    });
  });
});
