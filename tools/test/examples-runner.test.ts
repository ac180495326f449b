import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The example runner's rules (tools/README.md, "The example runner"): what it extracts from
// markdown and from the CLI's manifest, and how it rewrites `npm install` to the packed tarballs.
const examplesDirectory = path.join(__dirname, '..', 'examples');
const repositoryRoot = path.join(__dirname, '..', '..');

/** Calls one export of extract-examples.mjs with JSON arguments and returns its JSON result. */
function callExtract(name: string, ...args: unknown[]): unknown {
  const script = `import * as extract from ${JSON.stringify(path.join(examplesDirectory, 'extract-examples.mjs'))};
process.stdout.write(JSON.stringify(extract[${JSON.stringify(name)}](...${JSON.stringify(args)})));`;
  return JSON.parse(execFileSync('node', ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

describe('the example runner', () => {
  it('extracts shell blocks, one command per logical line, and tells repository-checkout blocks apart', () => {
    const text = [
      '# Title',
      '```sh',
      'npm install @skillopt/cli   # the CLI',
      '# a comment line',
      '',
      'skillopt train \\',
      '  --out runs/first',
      '```',
      '```js',
      'console.log("not a shell block");',
      '```',
      '<!-- examples: repository-checkout -->',
      '```bash',
      'pnpm check',
      '```',
      '```console',
      '$ skillopt --version',
      '@skillopt/cli/0.1.0 linux-x64 node-v20',
      '```',
    ].join('\n');
    expect(callExtract('shellBlocks', text)).toEqual([
      { line: 2, language: 'sh', commands: ['npm install @skillopt/cli   # the CLI', 'skillopt train \\\n  --out runs/first'], repositoryCheckout: false },
      { line: 13, language: 'bash', commands: ['pnpm check'], repositoryCheckout: true },
      { line: 16, language: 'console', commands: ['skillopt --version'], repositoryCheckout: false },
    ]);
  });

  it("makes each command's --help examples a document, its setup first, with config.bin read as skillopt", () => {
    const manifest = {
      commands: {
        train: { examples: [{ description: 'd', command: '<%= config.bin %> train' }, '<%= config.bin %> train --json'] },
        'runs:show': { examples: [{ description: 'd', command: '<%= config.bin %> runs show runs/first' }] },
      },
    };
    expect(callExtract('manifestDocuments', manifest, { train: ['skillopt init'] })).toEqual([
      {
        document: 'skillopt train --help',
        examples: [
          { location: 'skillopt train --help, its setup (tools/examples/command-setup.json)', commands: ['skillopt init'], repositoryCheckout: false },
          { location: 'skillopt train --help, example 1', commands: ['skillopt train'], repositoryCheckout: false },
          { location: 'skillopt train --help, example 2', commands: ['skillopt train --json'], repositoryCheckout: false },
        ],
      },
      {
        document: 'skillopt runs show --help',
        examples: [{ location: 'skillopt runs show --help, example 1', commands: ['skillopt runs show runs/first'], repositoryCheckout: false }],
      },
    ]);
  });

  it('finds the package READMEs, apps/cli/README.md and docs/**/*.md of this repository', () => {
    const documents = callExtract('exampleDocuments', repositoryRoot) as string[];
    expect(documents).toEqual(expect.arrayContaining(['README.md', 'packages/contract/README.md', 'apps/cli/README.md', 'docs/backends/openai.md']));
    expect(documents.every((document) => document.endsWith('.md'))).toBe(true);
  });

  describe('npm install', () => {
    let directory: string;
    let environment: NodeJS.ProcessEnv;

    beforeEach(() => {
      directory = mkdtempSync(path.join(os.tmpdir(), 'examples-npm-install-'));
      const bin = path.join(directory, 'bin');
      mkdirSync(bin);
      // A stand-in npm that prints the arguments it was given.
      writeFileSync(path.join(bin, 'npm'), '#!/usr/bin/env node\nprocess.stdout.write(JSON.stringify(process.argv.slice(2)));\n');
      chmodSync(path.join(bin, 'npm'), 0o755);
      const tarballs = { '@skillopt/cli': '/t/cli.tgz', '@skillopt/core': '/t/core.tgz', '@skillopt/contract': '/t/contract.tgz' };
      const internalDependencies = {
        '@skillopt/cli': ['@skillopt/cli', '@skillopt/core', '@skillopt/contract'],
        '@skillopt/core': ['@skillopt/core', '@skillopt/contract'],
        '@skillopt/contract': ['@skillopt/contract'],
      };
      writeFileSync(path.join(directory, 'tarballs.json'), JSON.stringify({ tarballs, internalDependencies }));
      environment = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}`, EXAMPLES_TARBALLS: path.join(directory, 'tarballs.json') };
    });
    afterEach(() => rmSync(directory, { recursive: true, force: true }));

    const install = (args: string[]) =>
      JSON.parse(
        execFileSync('node', [path.join(examplesDirectory, 'npm-install.mjs'), ...args], {
          cwd: directory,
          env: environment,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );

    it('replaces each @skillopt package by its tarball and those of the @skillopt packages it depends on, once each', () => {
      expect(install(['@skillopt/cli', '@skillopt/contract@^0.1.0', 'zod'])).toEqual(['install', '/t/cli.tgz', '/t/core.tgz', '/t/contract.tgz', 'zod']);
    });

    it("installs the @skillopt dependencies of the directory's package.json from their tarballs, without saving, when no package is named", () => {
      writeFileSync(
        path.join(directory, 'package.json'),
        JSON.stringify({ dependencies: { '@skillopt/core': '^0.1.0', zod: '^3' }, devDependencies: { jest: '30' } }),
      );
      expect(install([])).toEqual(['install', '--no-save', '/t/core.tgz', '/t/contract.tgz']);
    });

    it('passes other installs through as written', () => {
      expect(install(['@azure/identity', '--save-dev'])).toEqual(['install', '@azure/identity', '--save-dev']);
    });
  });
});
