import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError, taskItemSchema } from '@skillopt/contract';
import { createEnvironment, manifest, parseSearchQaConfig } from '../src/index';
import { FIXTURE_SPLIT_DIR, rawItem, temporaryDirectory, writeJson, writeJsonLines } from './helpers';

async function rejection(promise: Promise<unknown>): Promise<SkillOptError> {
  try {
    await promise;
  } catch (error) {
    if (SkillOptError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('loading the fixture split', () => {
  const environment = createEnvironment({ split_dir: FIXTURE_SPLIT_DIR });

  it('maps SearchQA items to TaskItems with question, references and context', async () => {
    const train = await environment.loadSplit('train');
    expect(train).toHaveLength(12);
    expect((await environment.loadSplit('val')).length).toBe(6);
    expect((await environment.loadSplit('test')).length).toBe(6);
    const first = train[0]!;
    expect(taskItemSchema.safeParse(first).success).toBe(true);
    expect(first).toMatchObject({ id: 'fixture-train-01', taskType: 'qa', references: ['Nile', 'Nile River'] });
    expect(first.question).toMatch(/Africa's longest/);
    expect(first.context).toMatch(/^\[DOC\] \[TLE\] /);
    expect(Object.keys(first).sort()).toEqual(['context', 'id', 'question', 'references', 'taskType']);
  });

  it('returns the same items in the same order every time', async () => {
    expect(await environment.loadSplit('val')).toEqual(await environment.loadSplit('val'));
  });

  it('applies limit to each split', async () => {
    const limited = createEnvironment({ split_dir: FIXTURE_SPLIT_DIR, limit: 2 });
    expect((await limited.loadSplit('train')).map((item) => item.id)).toEqual(['fixture-train-01', 'fixture-train-02']);
  });
});

describe('split directory layouts', () => {
  it.each([
    ['<split>/items.json', (dir: string, split: string, items: unknown[]) => writeJson(path.join(dir, split, 'items.json'), items)],
    ['<split>/items.jsonl', (dir: string, split: string, items: unknown[]) => writeJsonLines(path.join(dir, split, 'items.jsonl'), items)],
    ['<split>.json', (dir: string, split: string, items: unknown[]) => writeJson(path.join(dir, `${split}.json`), items)],
    ['<split>.jsonl', (dir: string, split: string, items: unknown[]) => writeJsonLines(path.join(dir, `${split}.jsonl`), items)],
  ])('reads %s', async (_layout, write) => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      for (const split of ['train', 'val', 'test']) await write(dir, split, [rawItem(`${split}-1`), rawItem(`${split}-2`)]);
      const environment = createEnvironment({ split_dir: dir });
      expect((await environment.loadSplit('test')).map((item) => item.id)).toEqual(['test-1', 'test-2']);
      expect((await environment.loadSplit('train'))[1]).toMatchObject({ question: 'Question train-2?', references: ['Answer train-2'] });
    } finally {
      await cleanup();
    }
  });

  it('reads items without context, numeric ids and answer_type', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      await writeJson(path.join(dir, 'train.json'), [
        { id: 7, question: ' How many? ', answers: ['7 '], answer_type: 'number' },
        { id: 'b', question: 'Where?', context: null, answers: ['Here'] },
      ]);
      await writeJson(path.join(dir, 'val.json'), []);
      await writeJson(path.join(dir, 'test.json'), []);
      const [numeric, plain] = await createEnvironment({ split_dir: dir }).loadSplit('train');
      expect(numeric).toEqual({ id: '7', taskType: 'qa', question: 'How many?', references: ['7'], answer_type: 'number' });
      expect(plain).toEqual({ id: 'b', taskType: 'qa', question: 'Where?', references: ['Here'] });
    } finally {
      await cleanup();
    }
  });

  it('rejects a bad item with a data-invalid error that names the file, the item and the problem', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      await writeJson(path.join(dir, 'train', 'items.json'), [rawItem('a'), { id: 'b', question: 'Q?', answers: [] }]);
      const error = await rejection(createEnvironment({ split_dir: dir }).loadSplit('train'));
      expect(error.code).toBe(ERROR_CODES.dataInvalid);
      expect(error.category).toBe('user');
      expect(error.message).toContain(path.join(dir, 'train', 'items.json'));
      expect(error.message).toContain('index 1');
      expect(error.message).toContain('answers must hold at least one gold answer');

      await writeJson(path.join(dir, 'train', 'items.json'), [{ id: 'c', answers: ['x'] }]);
      expect((await rejection(createEnvironment({ split_dir: dir }).loadSplit('train'))).message).toMatch(/index 0: question/);

      await writeJson(path.join(dir, 'train', 'items.json'), [rawItem('d', { answers: ['ok', '  '] })]);
      expect((await rejection(createEnvironment({ split_dir: dir }).loadSplit('train'))).message).toMatch(/each answer must not be blank/);
    } finally {
      await cleanup();
    }
  });

  it('rejects duplicate ids and a missing split', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      await writeJson(path.join(dir, 'train', 'items.json'), [rawItem('a'), rawItem('a')]);
      expect((await rejection(createEnvironment({ split_dir: dir }).loadSplit('train'))).message).toMatch(/duplicate id "a"/);
      expect((await rejection(createEnvironment({ split_dir: dir }).loadSplit('val'))).message).toMatch(/no val split/);
    } finally {
      await cleanup();
    }
  });
});

describe('ratio mode', () => {
  const pool = Array.from({ length: 20 }, (_unused, index) => rawItem(`p${String(index).padStart(2, '0')}`));

  it('splits one pool deterministically by ratio and seed', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      const file = path.join(dir, 'pool.jsonl');
      await writeJsonLines(file, pool);
      const load = async (seed: number) => {
        const environment = createEnvironment({ split_mode: 'ratio', data_path: file, split_ratio: '2:1:7', split_seed: seed });
        return {
          train: (await environment.loadSplit('train')).map((item) => item.id),
          val: (await environment.loadSplit('val')).map((item) => item.id),
          test: (await environment.loadSplit('test')).map((item) => item.id),
        };
      };
      const first = await load(42);
      expect([first.train.length, first.val.length, first.test.length]).toEqual([4, 2, 14]);
      expect(new Set([...first.train, ...first.val, ...first.test]).size).toBe(20);
      expect(await load(42)).toEqual(first);
      expect(await load(7)).not.toEqual(first);
    } finally {
      await cleanup();
    }
  });

  it('accepts a directory holding one pool file and writes the split to split_output_dir', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      await writeJson(path.join(dir, 'pool', 'all.json'), pool);
      const output = path.join(dir, 'generated');
      const environment = createEnvironment({ split_mode: 'ratio', data_path: path.join(dir, 'pool'), split_ratio: '1:1:2', split_output_dir: output });
      const val = await environment.loadSplit('val');
      expect(val).toHaveLength(5);
      const manifestFile = JSON.parse(await readFile(path.join(output, 'split_manifest.json'), 'utf8'));
      expect(manifestFile).toMatchObject({ split_mode: 'ratio', split_ratio: '1:1:2', split_seed: 42, counts: { train: 5, val: 5, test: 10 } });
      // The written split is the raw SearchQA format and loads back to the same items.
      const written = JSON.parse(await readFile(path.join(output, 'val', 'items.json'), 'utf8'));
      expect(Object.keys(written[0]).sort()).toEqual(['answers', 'context', 'id', 'question']);
      expect(await createEnvironment({ split_dir: output }).loadSplit('val')).toEqual(val);
    } finally {
      await cleanup();
    }
  });

  it('reports a pool directory with several files, and a bad item in any part of the pool', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      await writeJson(path.join(dir, 'a.json'), pool);
      await writeJson(path.join(dir, 'b.json'), pool);
      expect((await rejection(createEnvironment({ split_mode: 'ratio', data_path: dir }).loadSplit('train'))).message).toMatch(/several item files/);
      const file = path.join(dir, 'bad.jsonl');
      await writeJsonLines(file, [...pool, { id: 'x', question: 'Q' }]);
      const error = await rejection(createEnvironment({ split_mode: 'ratio', data_path: file }).loadSplit('val'));
      expect(error.message).toMatch(/line 21 .*answers/);
    } finally {
      await cleanup();
    }
  });
});

describe('config', () => {
  it('fills defaults and keeps the original key names', () => {
    expect(parseSearchQaConfig({ split_dir: 'x' })).toEqual({
      split_mode: 'split_dir',
      split_dir: 'x',
      data_path: '',
      split_ratio: '2:1:7',
      split_seed: 42,
      split_output_dir: '',
      limit: 0,
      max_items_file_bytes: 256 * 1024 * 1024,
      max_turns: 1,
      max_completion_tokens: 16384,
      exec_timeout: 120,
      max_context_chars: 6000,
    });
  });

  it('is strict and says what is wrong', () => {
    expect(manifest.configSchema.safeParse({ split_dir: 'x', split_dri: 'y' }).success).toBe(false);
    expect(() => createEnvironment({ split_dir: 'x', max_turns: 3 as 1 })).toThrow(/max_turns: only 1 is supported/);
    expect(() => createEnvironment({})).toThrow(/env.split_dir: split_mode is split_dir, so split_dir must name the split root/);
    expect(() => createEnvironment({ split_mode: 'ratio' })).toThrow(/env.data_path/);
    expect(() => createEnvironment({ split_mode: 'ratio', data_path: 'p', split_ratio: '1:2' })).toThrow(/env.split_ratio/);
    expect(() => createEnvironment({ split_dir: 'x', workers: 0 })).toThrow(expect.objectContaining({ code: ERROR_CODES.configInvalid, category: 'user' }));
  });

  it('accepts the keys the original searchqa config sets', () => {
    const parsed = manifest.configSchema.safeParse({
      split_mode: 'split_dir',
      split_dir: 'data/searchqa_split',
      split_seed: 42,
      max_turns: 1,
      max_completion_tokens: 16384,
      workers: 24,
      exec_timeout: 120,
      limit: 0,
    });
    expect(parsed.success).toBe(true);
  });
});
