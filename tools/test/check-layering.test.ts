import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Each test runs the layering check as a process, some tests several times, a Node start each,
// which a loaded machine slows many times over: the limit is there to catch a hang, not to time the
// runs.
jest.setTimeout(300_000);

const checkScript = path.join(__dirname, '..', 'layering', 'check-layering.mjs');

interface FixturePackage {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  files?: Record<string, string>;
  /** The package's `files` list: what it ships besides src/. */
  shipped?: string[];
}

function runCheckOn(packages: FixturePackage[]): { exitCode: number; lines: string[] } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'layering-fixture-'));
  try {
    for (const fixture of packages) {
      const directory = path.join(root, 'packages', fixture.name.replace('@skillopt/', ''));
      mkdirSync(path.join(directory, 'src'), { recursive: true });
      const { files, shipped, ...manifest } = fixture;
      writeFileSync(path.join(directory, 'package.json'), JSON.stringify(shipped === undefined ? manifest : { ...manifest, files: shipped }));
      for (const [file, text] of Object.entries(files ?? {})) {
        mkdirSync(path.dirname(path.join(directory, file)), { recursive: true });
        writeFileSync(path.join(directory, file), text);
      }
    }
    try {
      const output = execFileSync('node', [checkScript, root], { encoding: 'utf8' });
      return { exitCode: 0, lines: output.split('\n').filter(Boolean) };
    } catch (error) {
      const failure = error as { status: number; stdout: string };
      return { exitCode: failure.status, lines: failure.stdout.split('\n').filter(Boolean) };
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('the layering check', () => {
  it('is silent when dependencies point downwards', () => {
    const result = runCheckOn([
      { name: '@skillopt/contract' },
      { name: '@skillopt/env-kit', dependencies: { '@skillopt/contract': 'workspace:^' } },
      {
        name: '@skillopt/env-demo',
        dependencies: { '@skillopt/contract': 'workspace:^', '@skillopt/env-kit': 'workspace:^' },
        files: { 'src/index.ts': "import { splitByRatio } from '@skillopt/env-kit';\nimport type { TaskItem } from '@skillopt/contract';\n" },
      },
    ]);
    expect(result).toEqual({ exitCode: 0, lines: [] });
  });

  it("reads a plugin's shipped scripts too, not only src/", () => {
    const result = runCheckOn([
      { name: '@skillopt/sleep' },
      { name: '@skillopt/backends-openai' },
      {
        name: '@skillopt/plugin-demo',
        dependencies: { '@skillopt/sleep': 'workspace:^' },
        shipped: ['bin', 'hooks', 'README.md'],
        files: { 'bin/install.js': "import '@skillopt/sleep/installer';\n", 'hooks/end.mjs': "await import('@skillopt/backends-openai');\n" },
      },
    ]);
    expect(result.exitCode).toBe(1);
    expect(result.lines).toEqual([
      'packages/plugin-demo/hooks/end.mjs: imports @skillopt/backends-openai without declaring it in dependencies',
      'packages/plugin-demo: @skillopt/plugin-demo (plugin) imports @skillopt/backends-openai (backend); a plugin may depend on contract, runtime-kit, backends-kit, env-kit, optimizer, core, sleep (docs/architecture.md)',
    ]);
  });

  it('reports a declared dependency that points upwards', () => {
    const result = runCheckOn([{ name: '@skillopt/core' }, { name: '@skillopt/env-demo', dependencies: { '@skillopt/core': 'workspace:^' } }]);
    expect(result.exitCode).toBe(1);
    expect(result.lines).toEqual([
      'packages/env-demo: @skillopt/env-demo (env) depends on @skillopt/core (core); an env may depend on contract, runtime-kit, env-kit (docs/architecture.md)',
    ]);
  });

  it('reports an adapter importing another adapter, declared or not', () => {
    const result = runCheckOn([
      { name: '@skillopt/backends-openai' },
      {
        name: '@skillopt/backends-sim',
        files: { 'src/server.ts': "export { createOpenAiBackend } from '@skillopt/backends-openai/internal';\n" },
      },
    ]);
    expect(result.lines).toEqual([
      'packages/backends-sim/src/server.ts: imports @skillopt/backends-openai without declaring it in dependencies',
      'packages/backends-sim: @skillopt/backends-sim (backend) imports @skillopt/backends-openai (backend); a backend may depend on contract, runtime-kit, backends-kit (docs/architecture.md)',
    ]);
  });

  it('exempts tests, devDependencies and names computed at run time', () => {
    const result = runCheckOn([
      {
        name: '@skillopt/core',
        devDependencies: { '@skillopt/env-searchqa': 'workspace:^' },
        files: {
          'src/resolve.ts': "export const load = (id: string) => import('@skillopt/env-' + id);\n",
          'src/resolve.test.ts': "import '@skillopt/env-searchqa';\n",
          'test/train.test.ts': "import '@skillopt/backends-sim';\n",
        },
      },
    ]);
    expect(result).toEqual({ exitCode: 0, lines: [] });
  });

  it('lets the CLI depend on anything and flags a name that is no kind of package', () => {
    const result = runCheckOn([
      { name: '@skillopt/cli', dependencies: { '@skillopt/core': '^0.1.0', '@skillopt/backends-sim': '^0.1.0' } },
      { name: '@skillopt/utilities' },
    ]);
    expect(result.lines).toEqual(['packages/utilities: @skillopt/utilities is no kind of package docs/architecture.md names']);
  });
});
