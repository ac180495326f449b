import { resolveConfig } from '../../src/config/index.js';
import { writeFiles } from './temporary-files.js';

describe('resolveConfig: paths in env', () => {
  const files = writeFiles({
    'configs/_base_/default.yaml': 'env:\n  skill_init: ../skills/base.md\n',
    'configs/searchqa/default.yaml':
      '_base_: ../_base_/default.yaml\nenv:\n  name: searchqa\n  split_dir: ../../datasets/searchqa/fixture\n  data_dirs: [a, /abs/b]\n  search_api_url: https://example.com/search\n  max_turns: 1\n',
  });
  afterAll(() => files.cleanup());

  it('resolves a path against the directory of the file that wrote it, and leaves other values alone', async () => {
    const { config } = await resolveConfig({ layers: [files.path('configs/searchqa/default.yaml')], workingDirectory: '/elsewhere' });
    expect(config.env).toMatchObject({
      skill_init: files.path('configs/skills/base.md'),
      split_dir: files.path('datasets/searchqa/fixture'),
      data_dirs: [files.path('configs/searchqa/a'), '/abs/b'],
      search_api_url: 'https://example.com/search',
      max_turns: 1,
    });
  });

  it('resolves a path given as an override against the working directory', async () => {
    const { config } = await resolveConfig({
      layers: [files.path('configs/searchqa/default.yaml')],
      overrides: ['env.split_dir=data/searchqa_split', 'env.out_root=~/runs/x'],
      workingDirectory: '/work/repo',
    });
    expect(config.env.split_dir).toBe('/work/repo/data/searchqa_split');
    expect(config.env.out_root).toBe('~/runs/x');
  });
});

describe('resolveConfig: paths of a data layer', () => {
  it("are relative to the layer's directory when it has one, otherwise to the working directory", async () => {
    const withDirectory = await resolveConfig({
      layers: [{ name: 'package.json#skillopt', directory: '/project', config: { env: { name: 'x', split_dir: 'data/split' } } }],
    });
    expect(withDirectory.config.env.split_dir).toBe('/project/data/split');
    const without = await resolveConfig({ layers: [{ name: 'inline', config: { env: { name: 'x', split_dir: 'data/split' } } }], workingDirectory: '/cwd' });
    expect(without.config.env.split_dir).toBe('/cwd/data/split');
  });
});

describe('resolveConfig: env.workers', () => {
  it("reads the original's workers as rollout_workers, which wins when both are set", async () => {
    const one = await resolveConfig({ layers: [{ name: 'a', config: { env: { name: 'x', workers: 8 } } }] });
    expect(one.config.env.rollout_workers).toBe(8);
    const both = await resolveConfig({ layers: [{ name: 'a', config: { env: { name: 'x', workers: 8, rollout_workers: 3 } } }] });
    expect(both.config.env.rollout_workers).toBe(3);
  });
});
