import { describeEnvironmentPackageProblem, isEnvironment } from '@skillopt/contract';
import * as entry from '../src/index';
import { FAKE_ALFWORLD_OPTIONS, FIXTURE_CONFIG } from './helpers';

describe('the package entry', () => {
  it('is a usable env package', () => {
    expect(describeEnvironmentPackageProblem(entry)).toBeUndefined();
    expect(entry.manifest).toMatchObject({ kind: 'env', id: 'alfworld', specificationVersion: 'v1' });
  });

  it('creates an environment with the ALFWorld shape and our initial skill', async () => {
    const environment = entry.createEnvironment(FIXTURE_CONFIG, FAKE_ALFWORLD_OPTIONS);
    expect(isEnvironment(environment)).toBe(true);
    expect(environment.targetKinds).toEqual(['chat']);
    expect(environment.taskTypes).toContain('pick_heat_then_place_in_recep');
    const skill = await environment.initialSkill();
    expect(skill).toMatch(/^# Household text games/);
    expect(entry.ALFWORLD_BRIDGE_SCRIPT).toContain('from alfworld.agents.environment import get_environment');
  });

  it('rejects a misspelt key, naming it', () => {
    expect(() => entry.createEnvironment({ ...FIXTURE_CONFIG, max_step: 10 } as never)).toThrow(/max_step/);
  });
});
