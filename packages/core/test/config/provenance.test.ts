import { SkillOptError } from '@skillopt/contract';
import { composeConfigSchema, describeConfigSource, resolveConfig } from '../../src/config/index.js';
import { openAiBackend } from './stub-packages.js';
import { writeFiles } from './temporary-files.js';

describe('resolveConfig: provenance', () => {
  const files = writeFiles({
    'configs/_base_/default.yaml': 'train:\n  num_epochs: 4\n  seed: 42\noptimizer:\n  learning_rate: 4\n',
    'configs/searchqa/default.yaml': '_base_: ../_base_/default.yaml\ntrain:\n  num_epochs: 3\nenv:\n  name: searchqa\n',
    'run.yaml':
      '_base_: configs/searchqa/default.yaml\nevaluation:\n  gate_metric: soft\nmodel:\n  target_backend: qwen_chat\n  qwen_chat_base_url: http://localhost:8000/v1\n',
  });
  afterAll(() => files.cleanup());

  it('says for every value whether a base file, the file, a data layer, an override or a default set it', async () => {
    const resolved = await resolveConfig({
      layers: [{ name: 'package.json#skillopt', config: { run: { retries: 5 }, train: { seed: 1 } } }, files.path('run.yaml')],
      overrides: ['train.seed=7', 'edit_budget=2'],
      schema: composeConfigSchema({ backends: { openai: openAiBackend } }),
    });
    const base = files.path('configs/_base_/default.yaml');
    const searchqa = files.path('configs/searchqa/default.yaml');
    const run = files.path('run.yaml');
    expect(resolved.files).toEqual([base, searchqa, run]);
    expect(resolved.config.train).toEqual({ num_epochs: 3, seed: 7, train_size: 0, batch_size: 40, accumulation: 1 });
    expect(resolved.sources['train.num_epochs']).toEqual({ kind: 'file', path: searchqa, includedBy: run });
    expect(resolved.sources['train.seed']).toEqual({ kind: 'override', text: 'train.seed=7' });
    expect(resolved.sources['optimizer.learning_rate']).toEqual({ kind: 'override', text: 'edit_budget=2' });
    expect(resolved.sources['optimizer.min_learning_rate']).toEqual({ kind: 'default' });
    expect(resolved.sources['run.retries']).toEqual({ kind: 'inline', name: 'package.json#skillopt' });
    expect(resolved.sources['evaluation.gate_metric']).toEqual({ kind: 'file', path: run });
    expect(resolved.sources['env.name']).toEqual({ kind: 'file', path: searchqa, includedBy: run });
    // Translated keys keep the source of what the user wrote.
    expect(resolved.config.backends.openai).toMatchObject({ target: { preset: 'qwen', base_url: 'http://localhost:8000/v1' }, optimizer: { preset: 'azure' } });
    expect(resolved.sources['backends.openai.target.base_url']).toEqual({ kind: 'file', path: run });
    expect(resolved.sources['backends.openai.target.preset']).toEqual({ kind: 'file', path: run });
    expect(resolved.sources['backends.openai.timeout_seconds']).toEqual({ kind: 'default' });
    expect(resolved.originalFormat).toBe(true);
    expect(describeConfigSource(resolved.sources['train.num_epochs'] ?? { kind: 'default' })).toBe(`${searchqa} (_base_ of ${run})`);
    expect(describeConfigSource({ kind: 'override', text: 'train.seed=7' })).toBe('--set train.seed=7');
  });

  it('names the file that set each offending value', async () => {
    const bad = writeFiles({
      'base.yaml': 'train:\n  num_epochs: two\n',
      'run.yaml': '_base_: base.yaml\ntrain:\n  learning_rate: 3\nenv:\n  name: x\n',
    });
    try {
      await resolveConfig({ layers: [bad.path('run.yaml')], overrides: ['gradient.merge_batch_size=1'] });
      throw new Error('expected an error');
    } catch (error) {
      expect(SkillOptError.isInstance(error)).toBe(true);
      expect((error as Error).message).toBe(
        [
          'Invalid configuration (3 problems):',
          `  - train.num_epochs: expected a number, got the text "two" (set in ${bad.path('base.yaml')} (_base_ of ${bad.path('run.yaml')}))`,
          `  - train.learning_rate: unknown key — did you mean optimizer.learning_rate? (set in ${bad.path('run.yaml')})`,
          '  - gradient.merge_batch_size: must be at least 2, got 1 (set in --set gradient.merge_batch_size=1)',
        ].join('\n'),
      );
    } finally {
      bad.cleanup();
    }
  });

  it('follows replacement: a later scalar replaces a whole subtree, an empty mapping changes nothing', async () => {
    const resolved = await resolveConfig({
      layers: [
        { name: 'first', config: { env: { name: 'a', max_turns: 2 }, evaluation: { must_pass: ['x'] } } },
        { name: 'second', config: { env: {}, evaluation: { must_pass: ['y', 'z'] } } },
      ],
      overrides: ['env={name: b}'],
    });
    expect(resolved.config.env).toMatchObject({ name: 'b' });
    expect(resolved.config.env).not.toHaveProperty('max_turns');
    expect(resolved.sources['env.name']).toEqual({ kind: 'override', text: 'env={name: b}' });
    expect(resolved.sources['evaluation.must_pass']).toEqual({ kind: 'inline', name: 'second' });
  });

  it('reads a flat legacy layer and gives its translated keys their source', async () => {
    const resolved = await resolveConfig({ layers: [{ name: 'legacy', config: { env: 'searchqa', edit_budget: 3, max_turns: 1 } }] });
    expect(resolved.originalFormat).toBe(true);
    expect(resolved.config.optimizer.learning_rate).toBe(3);
    expect(resolved.config.env).toMatchObject({ name: 'searchqa', max_turns: 1 });
    expect(resolved.sources['optimizer.learning_rate']).toEqual({ kind: 'inline', name: 'legacy' });
    expect(resolved.sources['env.max_turns']).toEqual({ kind: 'inline', name: 'legacy' });
    // Only env is unvalidated: with no backend package loaded, nothing says what openai_chat implies for backends.openai.
    expect(resolved.warnings.map((warning) => [warning.code, warning.path])).toEqual([['section-not-validated', 'env']]);
  });
});
