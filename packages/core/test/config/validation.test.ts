import { SkillOptError } from '@skillopt/contract';
import { composeConfigSchema, editDistance, validateConfig, type ConfigProblem } from '../../src/config/index.js';

function problemsOf(raw: unknown): ConfigProblem[] {
  try {
    validateConfig(raw);
  } catch (error) {
    if (!SkillOptError.isInstance(error)) throw error;
    expect(error.code).toBe('config-invalid');
    expect(error.category).toBe('user');
    return (error.details?.problems ?? []) as ConfigProblem[];
  }
  throw new Error('expected the config to be invalid');
}

const minimal = { env: { name: 'searchqa' } };

describe('validateConfig: defaults', () => {
  it("fills every default from the original's base YAML", () => {
    const { config, warnings } = validateConfig(minimal);
    expect(warnings).toEqual([]);
    expect(config.train).toEqual({ num_epochs: 4, train_size: 0, batch_size: 40, accumulation: 1, seed: 42 });
    expect(config.gradient).toEqual({ minibatch_size: 8, merge_batch_size: 8, analyst_workers: 16, failure_only: false });
    expect(config.optimizer).toMatchObject({
      learning_rate: 4,
      min_learning_rate: 2,
      lr_scheduler: 'cosine',
      lr_control_mode: 'fixed',
      skill_update_mode: 'patch',
      use_slow_update: true,
      use_meta_skill: true,
      longitudinal_pair_policy: 'mixed',
    });
    expect(config.evaluation).toMatchObject({
      use_gate: true,
      gate_metric: 'hard',
      gate_mixed_weight: 0.5,
      gate_strategy: 'strict',
      paired_error_rate: 0.05,
      must_pass: [],
    });
    expect(config.model).toEqual({ target_backend: 'openai', optimizer_backend: 'openai', reasoning_effort: 'medium', rewrite_max_completion_tokens: 64000 });
    expect(config.env).toEqual({ name: 'searchqa', split_mode: 'ratio', split_seed: 42, split_ratio: '2:1:7', exec_timeout: 120 });
    expect(config.budget).toEqual({ target: {}, optimizer: {}, total: {}, stop_mid_step: false });
    expect(config.run).toEqual({ retries: 2, max_excluded_share: 0.5 });
    expect(config.backends).toEqual({});
  });

  it("accepts the original's aliases of update mode, LR control and pair policy", () => {
    const { config } = validateConfig({
      ...minimal,
      optimizer: { skill_update_mode: 'Suggestions', lr_control_mode: 'auto', longitudinal_pair_policy: '10_01' },
    });
    expect(config.optimizer.skill_update_mode).toBe('rewrite_from_suggestions');
    expect(config.optimizer.lr_control_mode).toBe('autonomous');
    expect(config.optimizer.longitudinal_pair_policy).toBe('changed');
  });

  it('reads leading_words from a list or a comma-separated string, and item ids as text', () => {
    const { config } = validateConfig({ ...minimal, evaluation: { leading_words: 'always, never ,must', must_pass: [17, 'q-2'] } });
    expect(config.evaluation.leading_words).toEqual(['always', 'never', 'must']);
    expect(config.evaluation.must_pass).toEqual(['17', 'q-2']);
  });
});

describe('validateConfig: problems', () => {
  it('suggests the nearest key at the same level for a misspelt key', () => {
    expect(problemsOf({ ...minimal, train: { num_epoch: 2 } })).toEqual([{ path: 'train.num_epoch', message: 'unknown key', suggestion: 'train.num_epochs' }]);
  });

  it('counts a swapped pair of letters as one typo', () => {
    expect(editDistance('lerning_rate', 'learning_rate')).toBe(1);
    expect(editDistance('laerning_rate', 'learning_rate')).toBe(1);
    expect(problemsOf({ ...minimal, optimizer: { laerning_rate: 2 } })[0]?.suggestion).toBe('optimizer.learning_rate');
  });

  it('suggests the key of another section when it lives there', () => {
    expect(problemsOf({ ...minimal, train: { learning_rate: 2 } })).toEqual([
      { path: 'train.learning_rate', message: 'unknown key', suggestion: 'optimizer.learning_rate' },
    ]);
    expect(problemsOf({ ...minimal, evaluation: { seed: 1 } })[0]?.suggestion).toBe('train.seed');
  });

  it('suggests a section for a misspelt section, and the section of a stray flat key', () => {
    expect(problemsOf({ ...minimal, trian: { seed: 1 } })[0]?.suggestion).toBe('train');
    expect(problemsOf({ ...minimal, gate_strategy: 'paired' })[0]?.suggestion).toBe('evaluation.gate_strategy');
  });

  it('lists the valid keys when nothing is close', () => {
    expect(problemsOf({ ...minimal, run: { zzzzzzzz: 1 } })[0]?.message).toBe(
      'unknown key; the keys here are retries, rollout_concurrency, max_excluded_share, executor',
    );
  });

  it('says what was expected and what it got for a wrong type', () => {
    expect(problemsOf({ ...minimal, train: { num_epochs: 'two' } })).toEqual([{ path: 'train.num_epochs', message: 'expected a number, got the text "two"' }]);
    expect(problemsOf({ ...minimal, train: { num_epochs: 2.5 } })[0]?.message).toBe('expected a whole number, got the number 2.5');
    expect(problemsOf({ ...minimal, evaluation: { use_gate: 'yes' } })[0]?.message).toBe('expected true or false, got the text "yes"');
    expect(problemsOf({ ...minimal, train: [] })[0]?.message).toBe('expected a mapping, got a list');
  });

  it('lists the choices of an enum and suggests the nearest', () => {
    expect(problemsOf({ ...minimal, optimizer: { lr_scheduler: 'cosin' } })).toEqual([
      { path: 'optimizer.lr_scheduler', message: 'expected one of constant, linear, cosine, autonomous, got the text "cosin"', suggestion: 'cosine' },
    ]);
  });

  it('rejects an unknown update mode instead of silently patching (upstream §10.18)', () => {
    expect(problemsOf({ ...minimal, optimizer: { skill_update_mode: 'rewrite_everything' } })[0]?.path).toBe('optimizer.skill_update_mode');
  });

  it('explains numeric bounds', () => {
    expect(problemsOf({ ...minimal, gradient: { merge_batch_size: 1 } })).toEqual([
      { path: 'gradient.merge_batch_size', message: 'must be at least 2, got 1' },
    ]);
    expect(problemsOf({ ...minimal, evaluation: { paired_error_rate: 0 } })[0]?.message).toBe('must be greater than 0, got 0');
    expect(problemsOf({ ...minimal, optimizer: { learning_rate: 2, min_learning_rate: 3 } })).toEqual([
      { path: 'optimizer.min_learning_rate', message: 'must not exceed optimizer.learning_rate (2), got 3' },
    ]);
  });

  it('says a required key is missing', () => {
    expect(problemsOf({})).toEqual([{ path: 'env', message: 'required key is missing (expected a mapping)' }]);
    expect(problemsOf({ env: {} })).toEqual([{ path: 'env.name', message: 'required key is missing (expected text)' }]);
  });

  it('lists every problem, not only the first, in one error message', () => {
    let message = '';
    try {
      validateConfig({ env: { name: 'searchqa', split_ratio: '2-1-7' }, train: { learning_rate: 1, num_epochs: 0 }, model: { target: '' } });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      [
        'Invalid configuration (4 problems):',
        '  - model.target: must not be empty; leave the key out instead, got the text ""',
        '  - train.num_epochs: must be at least 1, got 0',
        '  - train.learning_rate: unknown key — did you mean optimizer.learning_rate?',
        '  - env.split_ratio: expected train:val:test as three whole numbers above 0, e.g. "2:1:7", got the text "2-1-7"',
      ].join('\n'),
    );
  });

  it('points each problem at its source when the caller knows it', () => {
    try {
      validateConfig({ ...minimal, train: { seed: 'x' } }, composeConfigSchema(), { describeSource: (path) => `set in run.yaml (${path})` });
    } catch (error) {
      expect((error as Error).message).toContain('train.seed: expected a number, got the text "x" (set in run.yaml (train.seed))');
      return;
    }
    throw new Error('expected an error');
  });
});

describe('validateConfig: prices', () => {
  const override = { provider: 'vllm', model: '*', input_usd_per_million: 0.1, output_usd_per_million: 0.4, source: 'our GPU hours', as_of: '2026-12-01' };

  it('has no overrides by default and takes a list of them, a date written unquoted in YAML included', () => {
    expect(validateConfig(minimal).config.prices).toEqual({ overrides: [] });
    const { config } = validateConfig({ ...minimal, prices: { overrides: [{ ...override, as_of: new Date('2026-12-01T00:00:00Z') }] } });
    expect(config.prices.overrides).toEqual([override]);
  });

  it('names a misspelt key of an override with its nearest valid one, and refuses a bad date or a negative rate', () => {
    const problems = problemsOf({
      ...minimal,
      prices: {
        overrides: [
          { ...override, output_usd_per_milion: 1 },
          { ...override, as_of: '1 Dec 2026', input_usd_per_million: -1 },
        ],
      },
    });
    expect(problems.map((problem) => problem.path)).toEqual(
      expect.arrayContaining(['prices.overrides[0].output_usd_per_milion', 'prices.overrides[1].as_of', 'prices.overrides[1].input_usd_per_million']),
    );
    expect(problems.find((problem) => problem.path === 'prices.overrides[0].output_usd_per_milion')?.suggestion).toBe(
      'prices.overrides[0].output_usd_per_million',
    );
  });
});
