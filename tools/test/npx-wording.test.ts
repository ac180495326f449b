import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

// `npx skillopt` outside a project that installed @skillopt/cli resolves the registry's package
// named `skillopt`, which is not ours. Docs, READMEs, the CLI's command texts and the scaffold
// `skillopt env new` writes teach `npx @skillopt/cli` (or `skillopt` once installed) instead.
const repositoryRoot = path.resolve(__dirname, '..', '..');
const UNOWNED_NPX = /\bnpx\s+(?:-y\s+|--yes\s+)?skillopt(?![\w/@-])/;

function taughtFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md', 'apps/cli/src/*.ts', 'apps/cli/package.json'], {
    cwd: repositoryRoot,
    encoding: 'utf8',
  });
  return listed.split('\n').filter((file) => file !== '' && !file.includes('node_modules/') && existsSync(path.join(repositoryRoot, file)));
}

describe('the command docs and the scaffold teach', () => {
  it('reads the docs, the READMEs, the CLI sources and its scaffold', () => {
    const files = taughtFiles();
    expect(files).toEqual(expect.arrayContaining(['README.md', 'apps/cli/README.md', 'apps/cli/src/scaffold/readme.ts', 'docs/architecture.md']));
  });

  it('is never `npx skillopt`, a name we do not own', () => {
    const offending = taughtFiles().flatMap((file) =>
      readFileSync(path.join(repositoryRoot, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (UNOWNED_NPX.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(offending).toEqual([]);
  });

  it('catches the spellings it is meant to, and lets ours through', () => {
    expect(['npx skillopt train', 'run `npx skillopt`', 'npx -y skillopt demo'].every((text) => UNOWNED_NPX.test(text))).toBe(true);
    expect(['npx @skillopt/cli train', 'npx skillopt-env-x', 'skillopt train'].some((text) => UNOWNED_NPX.test(text))).toBe(false);
  });
});
