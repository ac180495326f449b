import { describeBackendPackageProblem } from '@skillopt/contract';
import * as entry from '../src/index';
import { claudeCodeBackendConfigSchema, createBackend, manifest, priceTable, resolveRoleSettings } from '../src/index';

describe('the package entry', () => {
  it('is a usable backend package with both factories', () => {
    expect(describeBackendPackageProblem(entry)).toBeUndefined();
    expect(manifest).toMatchObject({ kind: 'backend', id: 'claude-code', specificationVersion: 'v1' });
    expect(entry.claudeCodeBackendPackage.priceTable).toBe(priceTable);
    const backend = createBackend({}, { environment: { ANTHROPIC_API_KEY: 'sk-ant-x' }, runsAsRoot: false });
    expect(backend.createAgentRunner({ role: 'target' })).toMatchObject({ provider: 'claude-code', modelId: 'claude-sonnet-4-6', defaultConcurrency: 2 });
    expect(backend.createChatModel({ role: 'optimizer', modelId: 'claude-opus-4-8' })).toMatchObject({ provider: 'claude-code', modelId: 'claude-opus-4-8' });
  });

  it('fills the documented defaults: the safe ones', () => {
    expect(claudeCodeBackendConfigSchema.parse({})).toEqual({
      path: 'claude',
      skill_placement: 'project-skill',
      skill_name: 'skillopt-target',
      sandboxed: false,
      pass_environment: [],
      max_concurrency: 2,
    });
  });

  it('is strict, and reads the original’s string spellings of numbers', () => {
    expect(claudeCodeBackendConfigSchema.safeParse({ permision_mode: 'dontAsk' }).success).toBe(false);
    expect(claudeCodeBackendConfigSchema.safeParse({ api_key: 'x' }).success).toBe(false);
    expect(claudeCodeBackendConfigSchema.safeParse({ permission_mode: 'yolo' }).success).toBe(false);
    expect(claudeCodeBackendConfigSchema.safeParse({ skill_name: '../x' }).success).toBe(false);
    expect(claudeCodeBackendConfigSchema.parse({ max_thinking_tokens: '16384' }).max_thinking_tokens).toBe(16384);
  });

  it('lets role sections override the top level, and the requested model win', () => {
    const config = claudeCodeBackendConfigSchema.parse({
      base_url: 'http://127.0.0.1:8080/',
      effort: 'high',
      optimizer: { model: 'claude-opus-4-8', effort: 'max' },
    });
    expect(resolveRoleSettings(config, 'target')).toEqual({
      modelId: 'claude-sonnet-4-6',
      baseUrl: 'http://127.0.0.1:8080',
      effort: 'high',
      maxThinkingTokens: undefined,
      timeoutMs: 600_000,
    });
    expect(resolveRoleSettings(config, 'optimizer')).toMatchObject({ modelId: 'claude-opus-4-8', effort: 'max' });
    expect(resolveRoleSettings(config, 'optimizer', 'sim-optimizer').modelId).toBe('sim-optimizer');
  });

  it('declares where its secrets live and the original’s claude_code_exec_ keys', () => {
    expect(manifest.credentials?.variables.map((variable) => variable.name)).toEqual(['ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN']);
    expect(manifest.credentials?.variableFor({}, 'target')).toBe('TARGET_ANTHROPIC_API_KEY');
    expect(manifest.originalConfig?.keyFamilies?.[0]).toMatchObject({
      prefix: 'claude_code_exec_',
      retired: { use_sdk: expect.any(String), profile: expect.any(String) },
    });
  });
});
