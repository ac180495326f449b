import { describeEnvironmentPackageProblem, isEnvironment } from '@skillopt/contract';
import * as entry from '../src/index';
import { FIXTURE_SPLIT_DIR } from './helpers';

describe('the package entry', () => {
  it('is a usable env package', () => {
    expect(describeEnvironmentPackageProblem(entry)).toBeUndefined();
    expect(entry.manifest).toMatchObject({ kind: 'env', id: 'searchqa', specificationVersion: 'v1' });
  });

  it('creates an environment with the SearchQA shape and our initial skill', async () => {
    const environment = entry.createEnvironment({ split_dir: FIXTURE_SPLIT_DIR });
    expect(isEnvironment(environment)).toBe(true);
    expect(environment.targetKinds).toEqual(['chat', 'agent']);
    expect(environment.taskTypes).toEqual(['qa']);
    const skill = await environment.initialSkill();
    expect(skill).toMatch(/^# Answering open-domain questions/);
    expect(skill.length).toBeLessThan(1500);
  });
});
