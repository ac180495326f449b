import { describeEnvironmentPackageProblem, isEnvironment } from '@skillopt/contract';
import * as entry from '../src/index';
import { realTasksConfig } from './helpers';

describe('the package entry', () => {
  it('is a usable env package', () => {
    expect(describeEnvironmentPackageProblem(entry)).toBeUndefined();
    expect(entry.manifest).toMatchObject({ kind: 'env', id: 'spreadsheetbench', specificationVersion: 'v1' });
  });

  it('creates an environment for chat and agent targets with its task types and our initial skill', async () => {
    const environment = entry.createEnvironment(realTasksConfig({}));
    expect(isEnvironment(environment)).toBe(true);
    expect(environment.targetKinds).toEqual(['chat', 'agent']);
    expect(environment.taskTypes).toEqual(['cell_level', 'sheet_level', 'other']);
    const skill = await environment.initialSkill();
    expect(skill).toMatch(/^# Solving spreadsheet tasks with a Python script/);
    expect(skill).toContain('INPUT_PATH');
  });

  it('rejects a misspelt key, naming it', () => {
    expect(() => entry.createEnvironment({ split_dir: 'x', sandbx: 'none' } as never)).toThrow(/sandbx/);
    expect(() => entry.createEnvironment({ split_dir: 'x', mode: 'multiple' } as never)).toThrow(/env\.mode/);
  });
});
