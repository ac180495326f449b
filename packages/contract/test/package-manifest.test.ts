import { z } from 'zod';
import {
  describeBackendPackageProblem,
  describeEnvironmentPackageProblem,
  isAgentRunner,
  isChatModel,
  isEnvironment,
  type BackendPackage,
  type ChatModel,
  type EnvironmentPackage,
} from '../src/index';

const echoModel: ChatModel = {
  specificationVersion: 'v1',
  provider: 'echo',
  modelId: 'echo-1',
  async generate(request) {
    return { text: JSON.stringify(request.messages.at(-1)), usage: { inputTokens: 1, outputTokens: 1 }, finishReason: 'stop' };
  },
};

const environmentPackage: EnvironmentPackage<{ dataDirectory: string }> = {
  manifest: { kind: 'env', id: 'tiny-qa', specificationVersion: 'v1', configSchema: z.strictObject({ dataDirectory: z.string() }) },
  createEnvironment: () => ({
    specificationVersion: 'v1',
    id: 'tiny-qa',
    targetKinds: ['chat'],
    taskTypes: ['factoid'],
    initialSkill: async () => '# Skill\n',
    loadSplit: async () => [],
    rollout: async (item) => ({ id: item.id, taskType: item.taskType, status: 'scored', hard: 0, soft: 0, prediction: '' }),
  }),
};

const backendPackage: BackendPackage<Record<string, never>> = {
  manifest: { kind: 'backend', id: 'echo', specificationVersion: 'v1', configSchema: z.strictObject({}) },
  createBackend: () => ({ specificationVersion: 'v1', id: 'echo', createChatModel: () => echoModel }),
};

describe('package entries', () => {
  it('accepts a well-formed env and backend package', async () => {
    expect(describeEnvironmentPackageProblem(environmentPackage)).toBeUndefined();
    expect(describeBackendPackageProblem(backendPackage)).toBeUndefined();
    expect(isEnvironment(await environmentPackage.createEnvironment({ dataDirectory: '.' }))).toBe(true);
    const backend = await backendPackage.createBackend({});
    expect(isChatModel(backend.createChatModel?.({ role: 'target' }))).toBe(true);
    expect(isAgentRunner(echoModel)).toBe(false);
  });

  it('says what is wrong with a module that is not a package entry', () => {
    expect(describeEnvironmentPackageProblem(undefined)).toBe('it exports nothing');
    expect(describeEnvironmentPackageProblem(backendPackage)).toMatch(/not an env manifest/);
    expect(describeBackendPackageProblem({ manifest: backendPackage.manifest })).toBe('it does not export a `createBackend` function');
    expect(describeBackendPackageProblem({ ...backendPackage, manifest: { ...backendPackage.manifest, configSchema: {} } })).toMatch(/manifest/);
  });

  it('names the contract version a package was written for when it is not supported', () => {
    const future = { ...environmentPackage, manifest: { ...environmentPackage.manifest, specificationVersion: 'v9' } };
    expect(describeEnvironmentPackageProblem(future)).toBe('its manifest declares package specification "v9"; this release of the contract defines v1');
  });

  it('does not take an object of an unsupported version for a chat model', () => {
    expect(isChatModel({ ...echoModel, specificationVersion: 'v0' })).toBe(false);
  });
});
