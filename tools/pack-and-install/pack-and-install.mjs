#!/usr/bin/env node
// Checks that no public package's tarball holds test data (testdata/ or a test folder), packs the
// public packages with `pnpm pack`, installs the ones a user would pick (selection.json)
// with plain `npm install` into a fresh directory, and loads every export from ESM and CommonJS and
// type-checks a consumer against the installed declarations. Third-party dependencies come from the
// npm registry, as in any install. Then the installed CLI: `skillopt --help` and `--version`, and
// the third-party path end to end: `skillopt env new demo-bench` in a second fresh directory,
// `npm install` there with the contract and env-kit tarballs, the scaffold's own tests (`npm test`),
// and `skillopt train` on the simulated model from that directory, which finds the env by its name.
// Then a start from npm alone: `npx @skillopt/cli init`, `train` and `runs show` in a new empty
// directory of the project, and `skillopt demo` in another, with the demo's figures. Last, the
// dashboard from the installed package: its page and one API route over a demo run.
// Results go to test-results/pack-and-install.json.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packPackage, publicPackages, readWorkspaceManifest, withInternalDependencies, workspaceRoot } from './workspace-packages.mjs';
import { createCheckRecorder, secondsSince } from './check-recorder.mjs';
import { publishableFiles, testDataDigests, testDataInFiles } from './test-data-in-tarballs.mjs';

const toolDirectory = path.dirname(fileURLToPath(import.meta.url));
const selection = JSON.parse(readFileSync(path.join(toolDirectory, 'selection.json'), 'utf8')).install;
const results = { passed: [], failed: [] };
const startedAt = Date.now();

const record = createCheckRecorder(results);

function exportedSubpaths(manifest) {
  return Object.keys(manifest.exports ?? { '.': manifest.main }).filter((subpath) => !subpath.endsWith('package.json'));
}

function specifierOf(name, subpath) {
  return subpath === '.' ? name : `${name}/${subpath.slice(2)}`;
}

const installDirectory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-pack-and-install-'));
try {
  const packages = publicPackages();
  const chosen = withInternalDependencies(selection, packages);
  const tarballDirectory = path.join(installDirectory, 'tarballs');
  mkdirSync(tarballDirectory);
  const tarballs = [];
  const tarballOf = new Map();
  for (const name of chosen) {
    record(`pnpm pack ${name}`, () => {
      const tarball = packPackage(packages.get(name).directory, tarballDirectory);
      tarballs.push(tarball);
      tarballOf.set(name, tarball);
    });
  }

  record(`no tarball of the ${packages.size} public packages holds test data`, () => {
    const digests = testDataDigests(path.join(workspaceRoot, 'testdata'));
    const problems = [...packages.entries()].flatMap(([name, { directory, manifest }]) =>
      testDataInFiles(directory, publishableFiles(directory, manifest), digests).map((problem) => `${name}: ${problem}`),
    );
    if (problems.length > 0) throw new Error(problems.join('\n'));
  });

  const projectDirectory = path.join(installDirectory, 'project');
  mkdirSync(projectDirectory);
  writeFileSync(path.join(projectDirectory, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2));
  record(`npm install ${chosen.length} tarballs into a fresh project`, () => {
    // @types/node as a TypeScript user on Node has it: the kits' declarations name Node's types.
    const nodeTypes = `@types/node@${readWorkspaceManifest().devDependencies['@types/node']}`;
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs, nodeTypes], { cwd: projectDirectory, stdio: 'pipe' });
    for (const name of chosen) {
      const installed = JSON.parse(readFileSync(path.join(projectDirectory, 'node_modules', name, 'package.json'), 'utf8'));
      for (const [dependency, range] of Object.entries(installed.dependencies ?? {}))
        if (range.startsWith('workspace:')) throw new Error(`${name} was packed with ${dependency}@${range}`);
    }
  });

  const specifiers = chosen.flatMap((name) => exportedSubpaths(packages.get(name).manifest).map((subpath) => specifierOf(name, subpath)));
  const loadScript = (load) =>
    `const specifiers = ${JSON.stringify(specifiers)};\n` +
    `for (const specifier of specifiers) {\n` +
    `  const loaded = ${load};\n` +
    `  const names = Object.keys(loaded).filter((name) => name !== 'default');\n` +
    `  if (names.length === 0) throw new Error(specifier + ' exports nothing');\n` +
    `}\n`;
  writeFileSync(path.join(projectDirectory, 'load.mjs'), loadScript('await import(specifier)'));
  writeFileSync(path.join(projectDirectory, 'load.cjs'), loadScript('require(specifier)'));
  record(`import ${specifiers.length} entry points from ESM`, () => execFileSync('node', ['load.mjs'], { cwd: projectDirectory, stdio: 'pipe' }));
  record(`require ${specifiers.length} entry points from CommonJS`, () => execFileSync('node', ['load.cjs'], { cwd: projectDirectory, stdio: 'pipe' }));

  // Type-check one ESM and one CommonJS consumer under NodeNext, which is the strictest resolver.
  const typeImports = specifiers
    .map((specifier, index) => `import * as entry${index} from '${specifier}';\nexport type Entry${index} = typeof entry${index};`)
    .join('\n');
  writeFileSync(path.join(projectDirectory, 'consumer.mts'), `${typeImports}\n`);
  writeFileSync(path.join(projectDirectory, 'consumer.cts'), `${typeImports}\n`);
  writeFileSync(
    path.join(projectDirectory, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
          lib: ['ES2022'],
        },
        files: ['consumer.mts', 'consumer.cts'],
      },
      null,
      2,
    ),
  );
  const typescriptCompiler = createRequire(path.join(workspaceRoot, 'package.json')).resolve('typescript/bin/tsc');
  record('type-check consumers against the installed declarations (NodeNext)', () =>
    execFileSync('node', [typescriptCompiler, '-p', 'tsconfig.json'], { cwd: projectDirectory, stdio: 'pipe' }),
  );
  // And a CommonJS consumer under node10, which reads no `exports`: subpaths (`@skillopt/env-kit/conformance`) resolve through typesVersions.
  writeFileSync(path.join(projectDirectory, 'consumer-node10.ts'), `${typeImports}\n`);
  const node10Options = {
    module: 'CommonJS',
    moduleResolution: 'node10',
    ignoreDeprecations: '6.0',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    lib: ['ES2022'],
  };
  writeFileSync(
    path.join(projectDirectory, 'tsconfig.node10.json'),
    JSON.stringify({ compilerOptions: node10Options, files: ['consumer-node10.ts'] }, null, 2),
  );
  record('type-check a consumer under node10 resolution (typesVersions)', () =>
    execFileSync('node', [typescriptCompiler, '-p', 'tsconfig.node10.json'], { cwd: projectDirectory, stdio: 'pipe' }),
  );

  // The CLI as a user runs it: the bin npm linked, from the fresh project.
  if (chosen.includes('@skillopt/cli')) {
    const skillopt = path.join(projectDirectory, 'node_modules', '.bin', process.platform === 'win32' ? 'skillopt.cmd' : 'skillopt');
    const run = (args, cwd) => execFileSync(skillopt, args, { cwd, stdio: 'pipe', encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    const cliVersion = packages.get('@skillopt/cli').manifest.version;
    record('skillopt --help runs from the fresh project and lists train and env new', () => {
      const help = run(['--help'], projectDirectory);
      for (const expected of ['train', 'env']) if (!help.includes(expected)) throw new Error(`--help does not mention ${expected}:\n${help}`);
      const envHelp = run(['env', 'new', '--help'], projectDirectory);
      if (!envHelp.includes('skillopt-env-<name>')) throw new Error(`env new --help:\n${envHelp}`);
    });
    record(`skillopt --version says @skillopt/cli/${cliVersion}`, () => {
      const version = run(['--version'], projectDirectory);
      if (!version.includes(`@skillopt/cli/${cliVersion}`)) throw new Error(`--version printed: ${version}`);
    });

    // A third party's env package: written by the packed CLI in a second fresh directory, installed
    // with the contract and env-kit tarballs and what they depend on of ours (none of it is on the
    // registry), tested, and trained on.
    const authorDirectory = path.join(installDirectory, 'author');
    mkdirSync(authorDirectory);
    const scaffoldDirectory = path.join(authorDirectory, 'skillopt-env-demo-bench');
    record('skillopt env new demo-bench writes skillopt-env-demo-bench in a second fresh directory', () => {
      run(['env', 'new', 'demo-bench'], authorDirectory);
      const manifest = JSON.parse(readFileSync(path.join(scaffoldDirectory, 'package.json'), 'utf8'));
      if (manifest.name !== 'skillopt-env-demo-bench') throw new Error(`package.json names ${manifest.name}`);
      for (const file of ['src/index.js', 'test/conformance.test.js', 'configs/example.yaml', 'data/train/items.json'])
        if (!existsSync(path.join(scaffoldDirectory, file))) throw new Error(`${file} was not written`);
    });
    record('npm install in the scaffold: the contract and env-kit tarballs, its registry dependencies (zod, jest)', () => {
      const kitTarballs = withInternalDependencies(['@skillopt/contract', '@skillopt/env-kit'], packages).map((name) => {
        const tarball = tarballOf.get(name);
        if (!tarball) throw new Error(`${name} was not packed`);
        return tarball;
      });
      // --no-save keeps the scaffold's package.json as written (registry ranges, as it is published).
      execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', ...kitTarballs], { cwd: scaffoldDirectory, stdio: 'pipe' });
      for (const name of ['@skillopt/contract', '@skillopt/env-kit', 'zod', 'jest'])
        if (!existsSync(path.join(scaffoldDirectory, 'node_modules', ...name.split('/'), 'package.json'))) throw new Error(`${name} is not installed`);
    });
    record('npm test in the scaffold: its conformance suite and scorer tests pass', () => {
      const result = spawnSync('npm', ['test', '--', '--ci', '--colors=false'], { cwd: scaffoldDirectory, encoding: 'utf8' });
      if (result.status !== 0)
        throw Object.assign(new Error(`npm test exited with ${result.status ?? result.signal}`), { stdout: result.stdout, stderr: result.stderr });
      const summary = /^Tests:\s+(.*)$/m.exec(`${result.stderr}\n${result.stdout}`);
      if (!summary || /failed/.test(summary[1])) throw Object.assign(new Error('no passing Jest summary'), { stdout: result.stdout, stderr: result.stderr });
      return `Tests: ${summary[1].trim()}`;
    });
    record('skillopt train --config configs/example.yaml --set train.num_epochs=1 trains the scaffold, found by its name, on the simulated model', () => {
      // env.name is `demo-bench`: resolved as skillopt-env-demo-bench from this directory, where the
      // package imports itself (a self-reference through its exports); it is in no node_modules.
      const output = run(['train', '--config', 'configs/example.yaml', '--set', 'train.num_epochs=1', '--out', 'run'], scaffoldDirectory);
      if (!output.includes('Training on demo-bench')) throw new Error(`train printed:\n${output}`);
      if (!output.includes('SIMULATED')) throw new Error(`the run was not labelled as simulated:\n${output}`);
      if (!existsSync(path.join(scaffoldDirectory, 'run', 'best_skill.md'))) throw new Error('no run/best_skill.md was written');
      if (existsSync(path.join(projectDirectory, 'node_modules', 'skillopt-env-demo-bench')))
        throw new Error('the scaffold is installed beside the CLI; the check would not prove resolution from the working directory');
    });
    // As after `npm publish` and `npm install skillopt-env-demo-bench` in a user's project: the
    // packed scaffold beside the CLI, found in the project's node_modules by the same short name.
    record('npm pack the scaffold and npm install it into the first project, as a published package', () => {
      const packed = execFileSync('npm', ['pack', '--pack-destination', tarballDirectory, '--loglevel=error'], {
        cwd: scaffoldDirectory,
        stdio: 'pipe',
        encoding: 'utf8',
      });
      const tarball = path.join(tarballDirectory, packed.trim().split('\n').at(-1));
      execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: projectDirectory, stdio: 'pipe' });
      if (!existsSync(path.join(projectDirectory, 'node_modules', 'skillopt-env-demo-bench', 'data', 'train', 'items.json')))
        throw new Error('the installed package lacks its dataset');
      writeFileSync(path.join(projectDirectory, 'demo-bench.yaml'), readFileSync(path.join(scaffoldDirectory, 'configs', 'example.yaml')));
    });
    record('skillopt train in the first project loads skillopt-env-demo-bench from its node_modules by name', () => {
      const output = run(['train', '--config', 'demo-bench.yaml', '--set', 'train.num_epochs=1', '--out', 'run-demo-bench'], projectDirectory);
      if (!output.includes('Training on demo-bench')) throw new Error(`train printed:\n${output}`);
      if (!existsSync(path.join(projectDirectory, 'run-demo-bench', 'best_skill.md'))) throw new Error('no run-demo-bench/best_skill.md was written');
    });

    // A start from npm alone, as `skillopt init` tells it: in a new, empty directory of the project
    // where the tarballs are installed, its printed next steps run as printed. `npx --no` is the
    // printed `npx @skillopt/cli`, refusing to fetch a registry copy should the local one be missing.
    const starterDirectory = path.join(projectDirectory, 'starter');
    mkdirSync(starterDirectory);
    const npx = (args) =>
      execFileSync('npx', ['--no', '@skillopt/cli', ...args], {
        cwd: starterDirectory,
        stdio: 'pipe',
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
    let starterRunDirectory;
    record('npx @skillopt/cli init writes a starter project in a new empty directory and names its next steps', () => {
      const output = npx(['init']);
      for (const file of ['skillopt.config.yaml', 'data/train/items.json', 'data/val/items.json', 'data/test/items.json', 'skills/initial.md'])
        if (!existsSync(path.join(starterDirectory, file))) throw new Error(`${file} was not written; init printed:\n${output}`);
      for (const step of ['npx @skillopt/cli train', 'npx @skillopt/cli runs show <run directory>'])
        if (!output.includes(step)) throw new Error(`init does not print ${step}:\n${output}`);
    });
    record('npx @skillopt/cli train trains the starter project with no --config, on the simulated model', () => {
      const output = npx(['train']);
      if (!output.includes('SIMULATED')) throw new Error(`the run was not labelled as simulated:\n${output}`);
      starterRunDirectory = /^ {2}run directory +(.+)$/m.exec(output)?.[1]?.trim();
      if (!starterRunDirectory?.startsWith(path.join(starterDirectory, 'outputs'))) throw new Error(`no run directory under outputs/ in:\n${output}`);
      if (!existsSync(path.join(starterRunDirectory, 'best_skill.md'))) throw new Error(`no best_skill.md in ${starterRunDirectory}`);
    });
    record('npx @skillopt/cli runs show <run directory> shows the starter run', () => {
      if (!starterRunDirectory) throw new Error('the starter run did not finish');
      const output = npx(['runs', 'show', path.relative(starterDirectory, starterRunDirectory)]);
      if (!output.includes('finished') || !output.includes('Steps')) throw new Error(`runs show printed:\n${output}`);
    });

    // The demo shipped in the package, trained from a directory that is neither the repository nor
    // the project: the README's figures, and the best skill a run of the repository's demo config writes.
    const demoDirectory = path.join(installDirectory, 'demo');
    mkdirSync(demoDirectory);
    record(
      "skillopt demo trains the shipped demo from an empty directory: 16.7% → 96.7% validation, 25.0% → 94.4% test, the repository run's best skill",
      () => {
        const output = run(['demo', '--out', 'run'], demoDirectory);
        for (const figure of ['validation score  16.7% → 96.7%', 'test accuracy     25.0% initial skill → 94.4% best skill', 'SIMULATED'])
          if (!output.includes(figure)) throw new Error(`the summary lacks "${figure}":\n${output}`);
        const repositoryRun = path.join(installDirectory, 'repository-demo-run');
        execFileSync(
          'node',
          [path.join(workspaceRoot, 'apps', 'cli', 'bin', 'run.js'), 'train', '--config', 'configs/demo/default.yaml', '--out', repositoryRun],
          {
            cwd: workspaceRoot,
            stdio: 'pipe',
          },
        );
        const best = readFileSync(path.join(demoDirectory, 'run', 'best_skill.md'), 'utf8');
        if (best !== readFileSync(path.join(repositoryRun, 'best_skill.md'), 'utf8')) throw new Error("best_skill.md differs from the repository demo run's");
      },
    );

    // The dashboard's page ships in the package (copied from @skillopt/dashboard by the CLI's
    // build): served from the installed files with no build step, over a demo run of the installed CLI.
    const dashboardDirectory = path.join(installDirectory, 'dashboard');
    mkdirSync(dashboardDirectory);
    record('skillopt dashboard serves its page and /api/runs from the installed package over a demo run, and stops on SIGTERM with exit 0', () => {
      run(['demo', '--out', path.join('runs', 'demo')], dashboardDirectory);
      return execFileSync('node', [path.join(toolDirectory, 'dashboard-check.mjs'), skillopt, dashboardDirectory, 'runs', 'demo'], {
        stdio: 'pipe',
        encoding: 'utf8',
      }).trim();
    });
  }
} finally {
  rmSync(installDirectory, { recursive: true, force: true });
  const resultsDirectory = path.join(toolDirectory, 'test-results');
  mkdirSync(resultsDirectory, { recursive: true });
  results.durationSeconds = Number(secondsSince(startedAt));
  writeFileSync(path.join(resultsDirectory, 'pack-and-install.json'), JSON.stringify(results, null, 2));
  console.log(`pack-and-install: ${results.passed.length} checks ok, ${results.failed.length} not ok; took ${results.durationSeconds} s`);
}
process.exitCode = results.failed.length ? 1 : 0;
