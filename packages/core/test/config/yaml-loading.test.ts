import { SkillOptError } from '@skillopt/contract';
import { deepMerge, loadConfigFile, parseConfigYaml } from '../../src/config/index.js';
import { writeFiles } from './temporary-files.js';

async function loadError(path: string): Promise<SkillOptError> {
  try {
    await loadConfigFile(path);
  } catch (error) {
    if (SkillOptError.isInstance(error)) return error;
    throw error;
  }
  throw new Error(`expected ${path} to fail`);
}

describe('loadConfigFile: YAML errors', () => {
  it('names the file, line and column of a syntax error and shows the offending line', async () => {
    const files = writeFiles({ 'run.yaml': 'train:\n  num_epochs: 2\n  batch_size: [1, 2\nenv:\n  name: searchqa\n' });
    try {
      const error = await loadError(files.path('run.yaml'));
      expect(error.code).toBe('config-invalid');
      expect(error.category).toBe('user');
      expect(error.message).toContain(`${files.path('run.yaml')}:4:1`);
      expect(error.message).toContain('4 | env:');
      expect(error.message).toMatch(/\n\s+\^/);
      expect(error.details).toMatchObject({ file: files.path('run.yaml'), line: 4, column: 1 });
    } finally {
      files.cleanup();
    }
  });

  it('rejects a key written twice instead of silently keeping the last', () => {
    expect(() => parseConfigYaml('train:\n  seed: 1\n  seed: 2\n', 'dup.yaml')).toThrow(/dup\.yaml:3:3: invalid YAML: Map keys must be unique/);
  });

  it('rejects a file whose top level is not a mapping', () => {
    expect(() => parseConfigYaml('- a\n- b\n', 'list.yaml')).toThrow(/list\.yaml: a config file must be a YAML mapping.*a list/);
  });

  it('reads an empty file as an empty config', () => {
    expect(parseConfigYaml('# nothing yet\n', 'empty.yaml')).toEqual({});
  });

  it('says which file is missing, and which file named it', async () => {
    const files = writeFiles({ 'run.yaml': '_base_: ../nowhere/base.yaml\n' });
    try {
      const error = await loadError(files.path('run.yaml'));
      expect(error.code).toBe('config-invalid');
      expect(error.message).toContain('nowhere/base.yaml');
      expect(error.message).toContain(`named by _base_ in ${files.path('run.yaml')}`);
    } finally {
      files.cleanup();
    }
  });
});

describe('loadConfigFile: _base_ inheritance', () => {
  it('resolves _base_ relative to the including file, recursively, child winning', async () => {
    const files = writeFiles({
      'configs/_base_/default.yaml': 'train:\n  num_epochs: 4\n  seed: 42\nevaluation:\n  must_pass: [a, b]\n',
      'configs/searchqa/default.yaml': '_base_: ../_base_/default.yaml\ntrain:\n  num_epochs: 3\nenv:\n  name: searchqa\n',
      'runs/mine.yaml': '_base_: ../configs/searchqa/default.yaml\nevaluation:\n  must_pass: [c]\n',
    });
    try {
      const loaded = await loadConfigFile(files.path('runs/mine.yaml'));
      expect(loaded.config).toEqual({
        train: { num_epochs: 3, seed: 42 },
        evaluation: { must_pass: ['c'] },
        env: { name: 'searchqa' },
      });
      expect(loaded.layers.map((layer) => layer.path)).toEqual([
        files.path('configs/_base_/default.yaml'),
        files.path('configs/searchqa/default.yaml'),
        files.path('runs/mine.yaml'),
      ]);
      expect(loaded.layers[0]?.includedBy).toBe(files.path('configs/searchqa/default.yaml'));
      expect(loaded.layers[2]?.includedBy).toBeUndefined();
    } finally {
      files.cleanup();
    }
  });

  it('applies a list of bases in order, each before the child', async () => {
    const files = writeFiles({
      'a.yaml': 'train:\n  seed: 1\n  num_epochs: 1\n',
      'b.yaml': 'train:\n  seed: 2\n',
      'run.yaml': '_base_: [a.yaml, b.yaml]\ntrain:\n  batch_size: 8\n',
    });
    try {
      const loaded = await loadConfigFile(files.path('run.yaml'));
      expect(loaded.config).toEqual({ train: { seed: 2, num_epochs: 1, batch_size: 8 } });
    } finally {
      files.cleanup();
    }
  });

  it('allows two bases that share a base (a diamond is not a cycle)', async () => {
    const files = writeFiles({
      'root.yaml': 'train:\n  seed: 7\n',
      'left.yaml': '_base_: root.yaml\n',
      'right.yaml': '_base_: root.yaml\n',
      'run.yaml': '_base_: [left.yaml, right.yaml]\n',
    });
    try {
      expect((await loadConfigFile(files.path('run.yaml'))).config).toEqual({ train: { seed: 7 } });
    } finally {
      files.cleanup();
    }
  });

  it('reports a cycle with the whole chain', async () => {
    const files = writeFiles({
      'a.yaml': '_base_: sub/b.yaml\n',
      'sub/b.yaml': '_base_: ../c.yaml\n',
      'c.yaml': '_base_: a.yaml\n',
    });
    try {
      const error = await loadError(files.path('a.yaml'));
      expect(error.code).toBe('config-invalid');
      expect(error.message).toBe(
        `_base_ inheritance forms a cycle: ${[files.path('a.yaml'), files.path('sub/b.yaml'), files.path('c.yaml'), files.path('a.yaml')].join(' -> ')}`,
      );
    } finally {
      files.cleanup();
    }
  });

  it('rejects a _base_ that is not a path', async () => {
    const files = writeFiles({ 'run.yaml': '_base_: {file: x.yaml}\n' });
    try {
      expect((await loadError(files.path('run.yaml'))).message).toMatch(/_base_ must be a file path or a list of file paths/);
    } finally {
      files.cleanup();
    }
  });
});

describe('deepMerge', () => {
  it('merges mappings, replaces lists and scalars, and leaves its inputs alone', () => {
    const base = { train: { seed: 1, num_epochs: 4 }, evaluation: { must_pass: ['a', 'b'] }, env: { name: 'x' } };
    const child = { train: { seed: 2 }, evaluation: { must_pass: ['c'] }, env: null };
    expect(deepMerge(base, child)).toEqual({ train: { seed: 2, num_epochs: 4 }, evaluation: { must_pass: ['c'] }, env: null });
    expect(base.train.seed).toBe(1);
    expect(base.evaluation.must_pass).toEqual(['a', 'b']);
  });
});
