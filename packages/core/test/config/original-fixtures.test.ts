import { join } from 'node:path';
import { composeConfigSchema, resolveConfig } from '../../src/config/index.js';
import { openAiBackend, searchqaEnv, spreadsheetbenchEnv } from './stub-packages.js';

const fixture = (relative: string) => join(__dirname, 'fixtures', 'original', relative);

describe("the original's configs load, translate and validate", () => {
  it('searchqa (structured, inheriting the original base)', async () => {
    const resolved = await resolveConfig({
      layers: [fixture('searchqa/default.yaml')],
      schema: composeConfigSchema({ environment: searchqaEnv, backends: { openai: openAiBackend } }),
      workingDirectory: '/home/user/SkillOpt',
    });
    expect(resolved.originalFormat).toBe(true);
    expect(resolved.files).toEqual([fixture('_base_/default.yaml'), fixture('searchqa/default.yaml')]);
    const { config } = resolved;
    expect(config.model).toEqual({
      optimizer: 'gpt-5.5',
      target: 'gpt-5.5',
      optimizer_backend: 'openai',
      target_backend: 'openai',
      reasoning_effort: 'medium',
      rewrite_max_completion_tokens: 64000,
    });
    expect(config.backends).toEqual({
      openai: {
        preset: 'azure',
        api_version: '2024-12-01-preview',
        ad_scope: 'https://cognitiveservices.azure.com/.default',
        timeout_seconds: 300,
      },
    });
    expect(config.train).toEqual({ num_epochs: 4, train_size: 400, batch_size: 40, accumulation: 1, seed: 42 });
    expect(config.gradient).toEqual({ minibatch_size: 8, merge_batch_size: 8, analyst_workers: 16, failure_only: false });
    expect(config.optimizer).toMatchObject({ learning_rate: 4, min_learning_rate: 2, skill_update_mode: 'patch', use_slow_update: true, use_meta_skill: true });
    expect(config.env).toEqual({
      name: 'searchqa',
      split_mode: 'split_dir',
      split_seed: 42,
      // The original's paths were relative to its repository root, where it ran from.
      split_dir: '/home/user/SkillOpt/data/searchqa_split',
      split_ratio: '2:1:7',
      exec_timeout: 120,
      rollout_workers: 24,
      workers: 24,
      max_turns: 1,
      max_completion_tokens: 16384,
      limit: 0,
    });
    // The base's many shipped defaults pass silently; only what the user wrote is warned about.
    expect(resolved.warnings).toEqual([
      {
        code: 'retired-key',
        path: 'gradient.max_analyst_rounds',
        message: 'gradient.max_analyst_rounds is retired and was ignored: the original parsed it but never used it, and had already retired it',
      },
      {
        code: 'value-translated',
        path: 'env.skill_init',
        message:
          "env.skill_init (skillopt/envs/searchqa/skills/initial.md) is the original's built-in initial skill; the env package's own initial skill is used instead",
      },
    ]);
    expect(resolved.sources['backends.openai.api_version']).toEqual({
      kind: 'file',
      path: fixture('_base_/default.yaml'),
      includedBy: fixture('searchqa/default.yaml'),
    });
    expect(resolved.sources['env.workers']).toEqual({ kind: 'file', path: fixture('searchqa/default.yaml') });
  });

  it('searchqa without its packages installed: the sections pass through with warnings', async () => {
    const resolved = await resolveConfig({ layers: [fixture('searchqa/default.yaml')] });
    expect(resolved.config.env).toMatchObject({ max_turns: 1, max_completion_tokens: 16384, limit: 0 });
    expect(resolved.warnings.map((warning) => [warning.code, warning.path])).toEqual([
      ['retired-key', 'gradient.max_analyst_rounds'],
      ['value-translated', 'env.skill_init'],
      ['section-not-validated', 'env'],
      ['section-not-validated', 'backends.openai'],
    ]);
  });

  it('spreadsheetbench (a Qwen target with per-role keys and an API key in the file)', async () => {
    const resolved = await resolveConfig({
      layers: [fixture('spreadsheetbench/default.yaml')],
      overrides: ['num_epochs=2'],
      schema: composeConfigSchema({ environment: spreadsheetbenchEnv, backends: { openai: openAiBackend } }),
      workingDirectory: '/home/user/SkillOpt',
    });
    const { config } = resolved;
    expect(config.model).toMatchObject({ optimizer: 'gpt-5.5', target: 'Qwen/Qwen3.5-4B', optimizer_backend: 'openai', target_backend: 'openai' });
    expect(config.backends.openai).toEqual({
      timeout_seconds: 300,
      optimizer: {
        preset: 'azure',
        api_version: '2024-12-01-preview',
        ad_scope: 'https://cognitiveservices.azure.com/.default',
        timeout_seconds: 300,
      },
      target: { preset: 'qwen', base_url: 'http://localhost:8000/v1', thinking_mode: 'disabled', timeout_seconds: 300 },
    });
    expect(config.train).toMatchObject({ num_epochs: 2, train_size: 80 });
    expect(config.env).toMatchObject({
      name: 'spreadsheetbench',
      exec_timeout: 600,
      rollout_workers: 24,
      data_root: '/home/user/SkillOpt/data/spreadsheetbench_verified_400',
      mode: 'multi',
      max_turns: 30,
    });
    expect(JSON.stringify(config)).not.toContain('local-not-a-real-key');
    expect(resolved.warnings.map((warning) => warning.message)).toEqual([
      'model.target_qwen_chat_api_key holds a secret, and secrets are never read from config files; it was ignored — set the environment variable TARGET_QWEN_CHAT_API_KEY instead',
      'train.steps_per_epoch is retired and was ignored: steps per epoch are derived from train_size, batch_size and accumulation (the original overwrote this key too)',
      "env.skill_init (skillopt/envs/spreadsheetbench/skills/initial.md) is the original's built-in initial skill; the env package's own initial skill is used instead",
    ]);
    expect(resolved.sources['train.num_epochs']).toEqual({ kind: 'override', text: 'num_epochs=2' });
    expect(resolved.sources['backends.openai.target.thinking_mode']).toEqual({ kind: 'file', path: fixture('spreadsheetbench/default.yaml') });
  });
});
