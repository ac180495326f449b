import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError, taskItemSchema } from '@skillopt/contract';
import { createEnvironment, manifest, parseDocVqaConfig, splitDocumentPath, type DocVqaTaskItem } from '../src/index';
import { FIXTURE_SPLIT_DIR, rawItem, temporaryDirectory, writeImage, writeItemsWithImages, writeJson, writeJsonLines } from './helpers';

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

  it('maps DocVQA items to TaskItems with question, references and the absolute page image path', async () => {
    const train = (await environment.loadSplit('train')) as DocVqaTaskItem[];
    expect(train).toHaveLength(6);
    expect(await environment.loadSplit('val')).toHaveLength(3);
    expect(await environment.loadSplit('test')).toHaveLength(3);
    const third = train[2]!;
    expect(taskItemSchema.safeParse(third).success).toBe(true);
    expect(third).toEqual({
      id: 'fixture-train-03',
      taskType: 'docvqa',
      question: 'Who signed the letter at the bottom of the page?',
      references: ['Margaret Hollis', 'M. Hollis'],
      image_path: path.join(FIXTURE_SPLIT_DIR, 'images', 'fixture-train-03.png'),
      topic: 'handwritten',
    });
  });

  it('returns the same items in the same order every time, and applies limit', async () => {
    expect(await environment.loadSplit('val')).toEqual(await environment.loadSplit('val'));
    const limited = createEnvironment({ split_dir: FIXTURE_SPLIT_DIR, limit: 2 });
    expect((await limited.loadSplit('train')).map((item) => item.id)).toEqual(['fixture-train-01', 'fixture-train-02']);
  });
});

describe('the item format', () => {
  it('reads the question CSV column names, gold strings and the document_path suffix', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      await writeJson(path.join(dir, 'train.json'), [
        {
          questionId: 49153,
          question: 'What is the date? document_path: pages/p1.png',
          ground_truth: "['1/8/93', '1/8/93']",
          category: 'form',
          docId: 14465,
          ucsf_document_id: 'txpp0227',
          ucsf_document_page_no: '10',
          source_split: 'validation',
        },
        { id: 'b', question: 'Who signed?', answer: '["J. Smith", "John Smith"]', image_path: 'pages/p2.png' },
        { id: 'c', question: 'Which code?', answers: [{ text: 'X-1' }, { text: 'X1' }], image_path: 'pages/p3.png' },
      ]);
      await writeJson(path.join(dir, 'val.json'), []);
      await writeJson(path.join(dir, 'test.json'), []);
      for (const name of ['p1', 'p2', 'p3']) await writeImage(path.join(dir, 'pages', `${name}.png`));
      const [csvStyle, jsonString, objects] = await createEnvironment({ split_dir: dir }).loadSplit('train');
      expect(csvStyle).toEqual({
        id: '49153',
        questionId: '49153',
        taskType: 'docvqa',
        question: 'What is the date?',
        references: ['1/8/93'],
        image_path: path.join(dir, 'pages', 'p1.png'),
        topic: 'form',
        docId: '14465',
        ucsf_document_id: 'txpp0227',
        ucsf_document_page_no: '10',
        source_split: 'validation',
      });
      expect(jsonString).toMatchObject({ id: 'b', references: ['J. Smith', 'John Smith'] });
      expect(objects).toMatchObject({ id: 'c', references: ['X-1', 'X1'] });
    } finally {
      await cleanup();
    }
  });

  it('splits a document_path suffix off a question', () => {
    expect(splitDocumentPath('What is it?\ndocument_path: a/b.png')).toEqual({ question: 'What is it?', documentPath: 'a/b.png' });
    expect(splitDocumentPath(' Plain? ')).toEqual({ question: 'Plain?' });
  });

  it('resolves relative image paths against image_root when it is set', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      const splits = path.join(dir, 'splits');
      const images = path.join(dir, 'page-store');
      for (const split of ['train', 'val', 'test']) await writeItemsWithImages(path.join(splits, split, 'items.json'), [rawItem(`${split}-1`)], images);
      const [item] = await createEnvironment({ split_dir: splits, image_root: images }).loadSplit('test');
      expect(item!.image_path).toBe(path.join(images, 'pages', 'test-1.png'));
      // Without image_root the split root is used, where these images are not.
      expect((await rejection(createEnvironment({ split_dir: splits }).loadSplit('test'))).message).toMatch(/1 of 1 page images are missing: test-1/);
    } finally {
      await cleanup();
    }
  });

  it('rejects a bad item with a data-invalid error that names the file, the item and the problem', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      const file = path.join(dir, 'train', 'items.json');
      const load = () => rejection(createEnvironment({ split_dir: dir }).loadSplit('train'));
      await writeJson(file, [rawItem('a'), rawItem('b', { answers: ['  ', ''] })]);
      const error = await load();
      expect(error.code).toBe(ERROR_CODES.dataInvalid);
      expect(error.category).toBe('user');
      expect(error.message).toContain(file);
      expect(error.message).toContain('index 1');
      expect(error.message).toContain('answers must hold at least one non-blank gold answer');

      await writeJson(file, [{ id: 'c', question: 'Q?', answers: ['x'] }]);
      expect((await load()).message).toMatch(/index 0: image_path: the item names no page image/);
      await writeJson(file, [{ question: 'Q?', answers: ['x'], image_path: 'p.png' }]);
      expect((await load()).message).toMatch(/index 0: id: the item needs an id/);
      await writeJson(file, [{ id: 'd', question: 'document_path: p.png', answers: ['x'] }]);
      expect((await load()).message).toMatch(/question must not be blank/);
      await writeJson(file, [{ id: 'e', question: 'Q?', image_path: 'p.png' }]);
      expect((await load()).message).toMatch(/ground_truth must hold at least one non-blank gold answer/);
    } finally {
      await cleanup();
    }
  });

  it('reports every missing page image at once, and duplicate ids', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      const items = Array.from({ length: 8 }, (_unused, index) => rawItem(`m${index}`));
      await writeJson(path.join(dir, 'train', 'items.json'), items);
      await writeImage(path.join(dir, 'pages', 'm0.png'));
      const error = await rejection(createEnvironment({ split_dir: dir }).loadSplit('train'));
      expect(error.code).toBe(ERROR_CODES.dataInvalid);
      expect(error.message).toMatch(/the train split under .*: 7 of 8 page images are missing: m1 \(.*m1\.png\), m2 .*, and 2 more; set env.image_root/);
      expect((error.details as { missing: unknown[] }).missing).toHaveLength(7);

      await writeJson(path.join(dir, 'train', 'items.json'), [rawItem('m0'), rawItem('m0')]);
      expect((await rejection(createEnvironment({ split_dir: dir }).loadSplit('train'))).message).toMatch(/duplicate id "m0"/);
    } finally {
      await cleanup();
    }
  });
});

describe('ratio mode', () => {
  const pool = Array.from({ length: 10 }, (_unused, index) => rawItem(`p${index}`));

  it('splits one pool deterministically, resolves images against the pool, and writes a split that loads back', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      const file = path.join(dir, 'pool', 'pool.jsonl');
      await writeJsonLines(file, pool);
      for (const item of pool) await writeImage(path.join(dir, 'pool', item.image_path as string));
      const output = path.join(dir, 'generated');
      const environment = createEnvironment({ split_mode: 'ratio', data_path: path.join(dir, 'pool'), split_ratio: '2:1:2', split_output_dir: output });
      const [train, val, test] = [await environment.loadSplit('train'), await environment.loadSplit('val'), await environment.loadSplit('test')];
      expect([train.length, val.length, test.length]).toEqual([4, 2, 4]);
      expect(new Set([...train, ...val, ...test].map((item) => item.id)).size).toBe(10);
      expect(val[0]!.image_path).toBe(path.join(dir, 'pool', 'pages', `${val[0]!.id}.png`));
      const manifestFile = JSON.parse(await readFile(path.join(output, 'split_manifest.json'), 'utf8'));
      expect(manifestFile).toMatchObject({ split_mode: 'ratio', split_ratio: '2:1:2', split_seed: 42, counts: { train: 4, val: 2, test: 4 } });
      // The written split holds absolute image paths, so it loads from its own directory.
      expect(await createEnvironment({ split_dir: output }).loadSplit('val')).toEqual(val);
      const again = createEnvironment({ split_mode: 'ratio', data_path: file, split_ratio: '2:1:2' });
      expect(await again.loadSplit('val')).toEqual(val);
    } finally {
      await cleanup();
    }
  });

  it('reports a pool directory with several files', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      await writeJson(path.join(dir, 'a.json'), pool);
      await writeFile(path.join(dir, 'b.jsonl'), '');
      expect((await rejection(createEnvironment({ split_mode: 'ratio', data_path: dir }).loadSplit('train'))).message).toMatch(/several item files/);
    } finally {
      await cleanup();
    }
  });
});

describe('config', () => {
  it('fills defaults and keeps the original key names', () => {
    expect(parseDocVqaConfig({ split_dir: 'x' })).toEqual({
      split_mode: 'split_dir',
      split_dir: 'x',
      data_path: '',
      split_ratio: '2:1:7',
      split_seed: 42,
      split_output_dir: '',
      limit: 0,
      max_items_file_bytes: 256 * 1024 * 1024,
      image_root: '',
      image_detail: 'auto',
      max_turns: 1,
      max_completion_tokens: 16384,
      exec_timeout: 120,
    });
  });

  it('is strict and says what is wrong', () => {
    expect(manifest.configSchema.safeParse({ split_dir: 'x', image_detial: 'low' }).success).toBe(false);
    expect(() => createEnvironment({ split_dir: 'x', image_detail: 'medium' as 'low' })).toThrow(/env.image_detail/);
    expect(() => createEnvironment({ split_dir: 'x', max_turns: 2 as 1 })).toThrow(/max_turns: only 1 is supported/);
    expect(() => createEnvironment({})).toThrow(/env.split_dir: split_mode is split_dir, so split_dir must name the split root/);
    expect(() => createEnvironment({ split_mode: 'ratio' })).toThrow(/env.data_path/);
    expect(() => createEnvironment({ split_mode: 'ratio', data_path: 'p', split_ratio: '1:2' })).toThrow(/env.split_ratio/);
    expect(() => createEnvironment({ split_dir: 'x', workers: 0 })).toThrow(expect.objectContaining({ code: ERROR_CODES.configInvalid, category: 'user' }));
  });

  it('accepts the keys the original docvqa config sets', () => {
    const parsed = manifest.configSchema.safeParse({
      split_mode: 'split_dir',
      split_dir: 'data/docvqa/splits',
      split_seed: 42,
      max_turns: 1,
      max_completion_tokens: 16384,
      workers: 16,
      image_detail: 'auto',
      exec_timeout: 120,
      limit: 0,
    });
    expect(parsed.success).toBe(true);
  });
});
