import { describeEnvironmentPackageProblem, isEnvironment } from '@skillopt/contract';
import * as entry from '../src/index';
import { FIXTURE_SPLIT_DIR } from './helpers';

describe('the package entry', () => {
  it('is a usable env package', () => {
    expect(describeEnvironmentPackageProblem(entry)).toBeUndefined();
    expect(entry.manifest).toMatchObject({ kind: 'env', id: 'livemath', specificationVersion: 'v1' });
  });

  it('creates an environment with the LiveMath shape and our initial skill', async () => {
    const environment = entry.createEnvironment({ split_dir: FIXTURE_SPLIT_DIR });
    expect(isEnvironment(environment)).toBe(true);
    expect(environment.id).toBe('livemath');
    expect(environment.targetKinds).toEqual(['chat', 'agent']);
    expect(environment.taskTypes).toEqual(['math_mcq']);
    const skill = await environment.initialSkill();
    expect(skill).toMatch(/^# Answering multiple-choice mathematics questions/);
    expect(skill.length).toBeLessThan(1500);
  });
});
