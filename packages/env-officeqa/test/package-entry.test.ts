import { describeEnvironmentPackageProblem, isEnvironment } from '@skillopt/contract';
import * as entry from '../src/index';
import { FIXTURE_CONFIG } from './helpers';

describe('the package entry', () => {
  it('is a usable env package', () => {
    expect(describeEnvironmentPackageProblem(entry)).toBeUndefined();
    expect(entry.manifest).toMatchObject({ kind: 'env', id: 'officeqa', specificationVersion: 'v1' });
  });

  it('creates an environment with the OfficeQA shape, three tools and our initial skill', async () => {
    const environment = entry.createEnvironment(FIXTURE_CONFIG);
    expect(isEnvironment(environment)).toBe(true);
    expect(environment.targetKinds).toEqual(['chat', 'agent']);
    expect(environment.taskTypes).toEqual(['easy', 'hard', 'officeqa']);
    expect(entry.OFFICEQA_TOOLS.map((tool) => tool.name)).toEqual(['glob', 'read', 'grep']);
    // The simulated target calls the first tool with its required string arguments: glob's only one is the pattern.
    expect(entry.OFFICEQA_TOOLS[0]!.inputSchema).toMatchObject({ required: ['pattern'] });
    const skill = await environment.initialSkill();
    expect(skill).toMatch(/^# Answering questions from office documents/);
    expect(skill.length).toBeLessThan(1500);
  });
});
