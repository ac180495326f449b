import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError, taskItemSchema } from '@skillopt/contract';
import {
  choiceOrderSeed,
  createEnvironment,
  liveMathItemSchema,
  manifest,
  parseLiveMathConfig,
  readLiveMathPoolFile,
  shuffleItemChoices,
  type LiveMathTaskItem,
} from '../src/index';
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

const parse = (value: unknown) => liveMathItemSchema.safeParse(value);
const issues = (value: unknown) => {
  const parsed = parse(value);
  return parsed.success ? '' : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
};

describe('loading the fixture split', () => {
  const stored = createEnvironment({ split_dir: FIXTURE_SPLIT_DIR, shuffle_choices: false });

  it('maps items to TaskItems with question, choices and references (label and text)', async () => {
    const train = (await stored.loadSplit('train')) as LiveMathTaskItem[];
    expect(train).toHaveLength(8);
    expect(await stored.loadSplit('val')).toHaveLength(4);
    expect(await stored.loadSplit('test')).toHaveLength(4);
    const first = train[0]!;
    expect(taskItemSchema.safeParse(first).success).toBe(true);
    expect(first).toMatchObject({
      id: 'fixture-train-01',
      taskType: 'math_mcq',
      question: 'What is the sum of the interior angles of a convex hexagon, in degrees?',
      references: ['B', '720'],
      theorem_types: ['geometry'],
    });
    expect(first.choices.map((choice) => choice.label)).toEqual(['A', 'B', 'C', 'D']);
    expect(first.theorem).toMatch(/\(n - 2\) \* 180/);
    expect(first.sketch).toMatch(/triangles/);
  });

  it('has correct answers in several positions and unique questions', async () => {
    const all = [...(await stored.loadSplit('train')), ...(await stored.loadSplit('val')), ...(await stored.loadSplit('test'))] as LiveMathTaskItem[];
    expect(new Set(all.map((item) => item.references[0])).size).toBe(4);
    expect(new Set(all.map((item) => item.question)).size).toBe(all.length);
    for (const item of all) expect(item.choices.find((choice) => choice.label === item.references[0])?.text).toBe(item.references[1]);
  });

  it('applies limit to each split', async () => {
    const limited = createEnvironment({ split_dir: FIXTURE_SPLIT_DIR, limit: 2 });
    expect((await limited.loadSplit('train')).map((item) => item.id)).toEqual(['fixture-train-01', 'fixture-train-02']);
  });
});

describe('choice shuffling', () => {
  const shuffled = createEnvironment({ split_dir: FIXTURE_SPLIT_DIR });
  const stored = createEnvironment({ split_dir: FIXTURE_SPLIT_DIR, shuffle_choices: false });

  it("is on by default and keeps the correct choice's text, relabelling A, B, C, … in the new order", async () => {
    const [after, before] = [(await shuffled.loadSplit('train')) as LiveMathTaskItem[], (await stored.loadSplit('train')) as LiveMathTaskItem[]];
    let moved = 0;
    after.forEach((item, index) => {
      const original = before[index]!;
      expect(item.choices.map((choice) => choice.label)).toEqual(original.choices.map((choice) => choice.label));
      expect([...item.choices.map((choice) => choice.text)].sort()).toEqual([...original.choices.map((choice) => choice.text)].sort());
      expect(item.references[1]).toBe(original.references[1]);
      expect(item.choices.find((choice) => choice.label === item.references[0])?.text).toBe(item.references[1]);
      if (item.choices.map((choice) => choice.text).join('|') !== original.choices.map((choice) => choice.text).join('|')) moved += 1;
    });
    expect(moved).toBeGreaterThanOrEqual(5);
  });

  it('gives the same item the same order every time, whatever else is loaded with it', async () => {
    const first = (await shuffled.loadSplit('train')) as LiveMathTaskItem[];
    expect(await createEnvironment({ split_dir: FIXTURE_SPLIT_DIR }).loadSplit('train')).toEqual(first);
    const limited = (await createEnvironment({ split_dir: FIXTURE_SPLIT_DIR, limit: 3 }).loadSplit('train')) as LiveMathTaskItem[];
    expect(limited).toEqual(first.slice(0, 3));
  });

  it('depends on split_seed and the id only', async () => {
    const item = (await createEnvironment({ split_dir: FIXTURE_SPLIT_DIR, shuffle_choices: false }).loadSplit('train'))[4] as LiveMathTaskItem;
    expect(shuffleItemChoices(item, 42)).toEqual(shuffleItemChoices(structuredClone(item), 42));
    const orders = new Set(
      [1, 2, 3, 4, 5, 6, 7, 8].map((seed) =>
        shuffleItemChoices(item, seed)
          .choices.map((choice) => choice.text)
          .join('|'),
      ),
    );
    expect(orders.size).toBeGreaterThan(1);
    expect(choiceOrderSeed(42, 'fixture-train-01')).toBe(choiceOrderSeed(42, 'fixture-train-01'));
    expect(Number.isSafeInteger(choiceOrderSeed(42, 'x'))).toBe(true);
    expect(choiceOrderSeed(42, 'x')).not.toBe(choiceOrderSeed(43, 'x'));
  });
});

describe('item formats', () => {
  it('reads the raw monthly row form: mcq object, choices as texts, label string, theorem_type string, id from month and no', () => {
    const parsed = parse({
      month: '202511',
      no: 3,
      paper_link: 'http://example.org/paper',
      theorem: 'T',
      sketch: 'S',
      theorem_type: 'analysis',
      mcq: { question: ' Q? ', choices: ['zero', 'one', 'two'], correct_choice: 'c.' },
    });
    expect(parsed.success && parsed.data).toEqual({
      id: '202511:3',
      taskType: 'math_mcq',
      question: 'Q?',
      references: ['C', 'two'],
      choices: [
        { label: 'A', text: 'zero' },
        { label: 'B', text: 'one' },
        { label: 'C', text: 'two' },
      ],
      theorem_types: ['analysis'],
      theorem: 'T',
      sketch: 'S',
      month: '202511',
      no: 3,
      paper_link: 'http://example.org/paper',
    });
  });

  it('reads choices as a label → text object (sorted by label) and {label, content} objects', () => {
    const fromRecord = parse({ id: 'r', question: 'Q', choices: { C: 'c', A: 'a', B: 'b' }, correct_choice: { label: '(a)', text: 'a' } });
    expect(fromRecord.success && fromRecord.data.choices.map((choice) => choice.label + choice.text)).toEqual(['Aa', 'Bb', 'Cc']);
    expect(fromRecord.success && fromRecord.data.references).toEqual(['A', 'a']);
    const fromContent = parse({
      id: 'c',
      question: 'Q',
      choices: [
        { label: 'a)', content: 'x' },
        { label: 'b)', content: 'y' },
      ],
      correct_choice: 'B',
    });
    expect(fromContent.success && fromContent.data.references).toEqual(['B', 'y']);
  });

  it('adds a correct choice missing from the choices when its text is given, and re-sorts', () => {
    const parsed = parse({ id: 'm', question: 'Q', choices: { A: 'a', B: 'b', D: 'd' }, correct_choice: { label: 'C', text: 'c' } });
    expect(parsed.success && parsed.data.choices.map((choice) => choice.label)).toEqual(['A', 'B', 'C', 'D']);
    expect(parsed.success && parsed.data.references).toEqual(['C', 'c']);
  });

  it('reads a correct choice given by its text', () => {
    const parsed = parse({ id: 't', question: 'Q', choices: ['alpha', 'beta'], correct_choice: 'Beta' });
    expect(parsed.success && parsed.data.references).toEqual(['B', 'beta']);
  });

  it('reports what is wrong with a bad item', () => {
    expect(issues({ question: 'Q', choices: ['a', 'b'], correct_choice: 'A' })).toMatch(/^id: the item has no id/);
    expect(issues(rawItem('x', { question: '  ' }))).toMatch(/question: question must not be blank/);
    expect(issues(rawItem('x', { choices: undefined }))).toMatch(/choices: choices are missing/);
    expect(
      issues(
        rawItem('x', {
          choices: [
            { label: 'A', text: 'a' },
            { label: 'a', text: 'b' },
          ],
          correct_choice: 'A',
        }),
      ),
    ).toMatch(/the label A is used twice/);
    expect(issues(rawItem('x', { choices: ['a', ' '], correct_choice: 'A' }))).toMatch(/choices.1: choice B has no text/);
    expect(issues(rawItem('x', { choices: [{ label: 'AA', text: 'a' }], correct_choice: 'A' }))).toMatch(/"AA" is not a single letter/);
    expect(issues(rawItem('x', { correct_choice: 'E' }))).toMatch(/correct label E is not one of the choices \(A, B, C, D\)/);
    expect(issues(rawItem('x', { correct_choice: 'seventeen' }))).toMatch(/names no choice by label or text/);
    expect(issues(rawItem('x', { choices: ['only'], correct_choice: 'A' }))).toMatch(/at least two choices/);
    expect(issues(rawItem('x', { correct_choice: undefined }))).toMatch(/correct_choice is missing/);
  });
});

describe('split directory layouts and errors', () => {
  it.each([
    ['<split>/items.json', (dir: string, split: string, items: unknown[]) => writeJson(path.join(dir, split, 'items.json'), items)],
    ['<split>.jsonl', (dir: string, split: string, items: unknown[]) => writeJsonLines(path.join(dir, `${split}.jsonl`), items)],
  ])('reads %s', async (_layout, write) => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      for (const split of ['train', 'val', 'test']) await write(dir, split, [rawItem(`${split}-1`), rawItem(`${split}-2`)]);
      const environment = createEnvironment({ split_dir: dir, shuffle_choices: false });
      expect((await environment.loadSplit('test')).map((item) => item.id)).toEqual(['test-1', 'test-2']);
      expect((await environment.loadSplit('train'))[1]).toMatchObject({ question: 'Question train-2?', references: ['B', 'second train-2'] });
    } finally {
      await cleanup();
    }
  });

  it('rejects a bad item with a data-invalid error naming the file, the item and the problem, and duplicate ids', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      await writeJson(path.join(dir, 'train', 'items.json'), [rawItem('a'), rawItem('b', { correct_choice: 'Z' })]);
      const error = await rejection(createEnvironment({ split_dir: dir }).loadSplit('train'));
      expect(error).toMatchObject({ code: ERROR_CODES.dataInvalid, category: 'user' });
      expect(error.message).toContain(`${path.join(dir, 'train', 'items.json')} index 1`);
      expect(error.message).toMatch(/correct label Z is not one of the choices/);
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

  it('splits one pool deterministically and writes the normalised split to split_output_dir', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      const file = path.join(dir, 'pool.jsonl');
      await writeJsonLines(file, pool);
      const output = path.join(dir, 'generated');
      const environment = createEnvironment({ split_mode: 'ratio', data_path: file, split_output_dir: output });
      const ids = async (env = environment) =>
        Promise.all((['train', 'val', 'test'] as const).map(async (split) => (await env.loadSplit(split)).map((item) => item.id)));
      const first = await ids();
      expect(first.map((list) => list.length)).toEqual([4, 2, 14]);
      expect(await ids(createEnvironment({ split_mode: 'ratio', data_path: file }))).toEqual(first);
      expect(await ids(createEnvironment({ split_mode: 'ratio', data_path: file, split_seed: 7 }))).not.toEqual(first);
      const written = JSON.parse(await readFile(path.join(output, 'split_manifest.json'), 'utf8'));
      expect(written).toMatchObject({ split_mode: 'ratio', split_ratio: '2:1:7', split_seed: 42, counts: { train: 4, val: 2, test: 14 } });
      expect(await createEnvironment({ split_dir: output }).loadSplit('test')).toEqual(await environment.loadSplit('test'));
    } finally {
      await cleanup();
    }
  });

  it('reads every monthly qa_<YYYYMM>_final.json below a directory and leaves out rows without a question', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      const row = (month: string, no: number) => ({
        month,
        no,
        theorem_type: ['x'],
        mcq: { question: `Q ${month} ${no}`, choices: ['a', 'b', 'c'], correct_choice: 'A' },
      });
      await writeJson(path.join(dir, 'data', '202511', 'qa_202511_final.json'), [
        row('202511', 1),
        row('202511', 2),
        { month: '202511', no: 3, theorem: 'no mcq here' },
      ]);
      await writeJson(path.join(dir, 'data', '202512', 'qa_202512_final.json'), { data: [row('202512', 1), row('202512', 2)] });
      await writeJson(path.join(dir, 'notes.json'), [{ unrelated: true }]);
      const output = path.join(dir, 'out');
      const environment = createEnvironment({ split_mode: 'ratio', data_path: dir, split_ratio: '1:1:2', split_output_dir: output });
      const all = [...(await environment.loadSplit('train')), ...(await environment.loadSplit('val')), ...(await environment.loadSplit('test'))];
      expect(all.map((item) => item.id).sort()).toEqual(['202511:1', '202511:2', '202512:1', '202512:2']);
      const written = JSON.parse(await readFile(path.join(output, 'split_manifest.json'), 'utf8'));
      expect(written).toMatchObject({ skipped_rows_without_mcq: 1, counts: { train: 1, val: 1, test: 2 } });
    } finally {
      await cleanup();
    }
  });
});

describe('pool files', () => {
  it('refuses a monthly pool file over env.max_items_file_bytes, and one that is not UTF-8, naming the file', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      const file = path.join(dir, 'qa_202501_final.json');
      await writeJson(file, [rawItem('m1'), rawItem('m2')]);
      const environment = createEnvironment({ split_mode: 'ratio', data_path: dir, split_ratio: '1:1:1', max_items_file_bytes: 64 });
      await expect(environment.loadSplit('train')).rejects.toThrow(`${file} is `);
      await expect(environment.loadSplit('train')).rejects.toThrow('raise env.max_items_file_bytes');
      await writeFile(file, Buffer.concat([Buffer.from('[\n'), Buffer.from('{"id": "caf\xe9"}', 'latin1'), Buffer.from('\n]')]));
      await expect(readLiveMathPoolFile(file)).rejects.toThrow(`${file} line 2 is not valid UTF-8`);
    } finally {
      await cleanup();
    }
  });
});

describe('config', () => {
  it('fills defaults and keeps the original key names', () => {
    expect(parseLiveMathConfig({ split_dir: 'x' })).toEqual({
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
      exec_timeout: 300,
      shuffle_choices: true,
      use_theorem: false,
      use_sketch: false,
    });
  });

  it('is strict and says what is wrong', () => {
    expect(manifest.configSchema.safeParse({ split_dir: 'x', shuffle_choice: false }).success).toBe(false);
    expect(() => createEnvironment({ split_dir: 'x', max_turns: 2 as 1 })).toThrow(/max_turns: only 1 is supported/);
    expect(() => createEnvironment({})).toThrow(/env.split_dir: split_mode is split_dir/);
    expect(() => createEnvironment({ split_mode: 'ratio' })).toThrow(/env.data_path/);
    expect(() => createEnvironment({ split_dir: 'x', use_theorem: 'yes' as unknown as boolean })).toThrow(
      expect.objectContaining({ code: ERROR_CODES.configInvalid, category: 'user' }),
    );
  });

  it('accepts the keys the original livemathematicianbench config sets', () => {
    const parsed = manifest.configSchema.safeParse({
      split_mode: 'split_dir',
      split_dir: 'data/livemathematicianbench_split',
      split_seed: 42,
      split_ratio: '2:1:7',
      max_turns: 1,
      max_completion_tokens: 16384,
      exec_timeout: 300,
      workers: 64,
      limit: 0,
      shuffle_choices: true,
      use_theorem: false,
      use_sketch: false,
    });
    expect(parsed.success).toBe(true);
  });
});
