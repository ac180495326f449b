import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SkillOptError } from '@skillopt/contract';
import { validateConfig } from '../../src/config/index.js';
import { importExecutorPackage } from '../../src/index';

describe('a distributed executor package', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-executor-package-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('is loaded by name from the first search directory that has it', async () => {
    const packageDirectory = path.join(directory, 'node_modules', '@skillopt', 'executor-bullmq');
    mkdirSync(packageDirectory, { recursive: true });
    writeFileSync(path.join(packageDirectory, 'package.json'), JSON.stringify({ name: '@skillopt/executor-bullmq', main: 'index.js' }));
    writeFileSync(path.join(packageDirectory, 'index.js'), 'exports.kind = "executor";');
    const loaded = await importExecutorPackage('bullmq', {
      searchDirectories: [path.join(directory, 'elsewhere'), directory],
      importModule: (_url, file) => Promise.resolve(require(file)),
    });
    expect(loaded).toEqual({ kind: 'executor' });
  });

  it('missing, is a user error with the npm install that fixes it', async () => {
    const loading = importExecutorPackage('bullmq', { searchDirectories: [directory] });
    await expect(loading).rejects.toThrow(/npm install @skillopt\/executor-bullmq$/);
    const error = await loading.catch((caught: unknown) => caught);
    expect(SkillOptError.isInstance(error) && [error.category, error.code]).toEqual(['user', 'package-not-found']);
  });

  it('is chosen by run.executor, in-process when absent, with a "did you mean" for a misspelt id', () => {
    expect(validateConfig({ env: { name: 'searchqa' } }).config.run.executor).toBeUndefined();
    expect(validateConfig({ env: { name: 'searchqa' }, run: { executor: 'bullmq' } }).config.run.executor).toBe('bullmq');
    expect(() => validateConfig({ env: { name: 'searchqa' }, run: { executor: 'bulmq' } })).toThrow(
      'run.executor: expected one of in-process, bullmq, got the text "bulmq" — did you mean bullmq?',
    );
  });
});
