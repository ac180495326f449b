import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const checkScript = path.join(__dirname, '..', 'changesets', 'check-changesets.mjs');

describe('the changeset check', () => {
  let root: string;
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: root, encoding: 'utf8' });
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  const check = (): { exitCode: number; output: string } => {
    try {
      return { exitCode: 0, output: execFileSync('node', [checkScript, 'base', root], { encoding: 'utf8' }) };
    } catch (error) {
      const failure = error as { status: number; stdout: string };
      return { exitCode: failure.status, output: failure.stdout };
    }
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'changesets-fixture-'));
    git('init', '-q', '-b', 'main');
    write('packages/widget/package.json', JSON.stringify({ name: '@skillopt/widget', version: '0.1.0' }));
    write('packages/widget/src/index.ts', 'export const widget = 1;\n');
    write('apps/dashboard/package.json', JSON.stringify({ name: '@skillopt/dashboard', private: true }));
    write('apps/dashboard/src/main.ts', 'export {};\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'base');
    git('tag', 'base');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('fails for a changed published package without a changeset, naming it', () => {
    write('packages/widget/src/index.ts', 'export const widget = 2;\n');
    git('commit', '-q', '-am', 'change');
    expect(check()).toEqual({ exitCode: 1, output: expect.stringContaining('without a changeset: @skillopt/widget') });
  });

  it('passes once a changeset names it', () => {
    write('packages/widget/src/index.ts', 'export const widget = 2;\n');
    write('.changeset/widget-two.md', "---\n'@skillopt/widget': minor\n---\n\nWidget two.\n");
    git('add', '-A');
    git('commit', '-q', '-m', 'change');
    expect(check().exitCode).toBe(0);
  });

  it('asks nothing for tests, private packages or files outside packages', () => {
    write('packages/widget/test/widget.test.ts', 'it("works", () => {});\n');
    write('apps/dashboard/src/main.ts', 'export const page = 1;\n');
    write('docs/notes.md', 'notes\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'no published change');
    expect(check()).toEqual({ exitCode: 0, output: expect.stringContaining('every published package changed since base has one') });
  });
});
