import path from 'node:path';
import { ERROR_CODES, SkillOptError, taskItemSchema } from '@skillopt/contract';
import { createEnvironment, manifest, parseListField, parseOfficeQaConfig, type OfficeQaTaskItem } from '../src/index';
import { FIXTURE_CONFIG, FIXTURE_SPLIT_DIR, rawItem, temporaryDirectory, writeJson } from './helpers';

async function rejection(promise: Promise<unknown>): Promise<SkillOptError> {
  try {
    await promise;
  } catch (error) {
    if (SkillOptError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

async function splitWith(items: unknown[]): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const temporary = await temporaryDirectory();
  await writeJson(path.join(temporary.dir, 'train.json'), items);
  await writeJson(path.join(temporary.dir, 'val.json'), []);
  await writeJson(path.join(temporary.dir, 'test.json'), []);
  return temporary;
}

describe('loading the fixture split', () => {
  const environment = createEnvironment(FIXTURE_CONFIG);

  it('maps OfficeQA items to TaskItems with question, references, files and source hints', async () => {
    const train = (await environment.loadSplit('train')) as OfficeQaTaskItem[];
    expect(train).toHaveLength(6);
    expect(await environment.loadSplit('val')).toHaveLength(3);
    expect(await environment.loadSplit('test')).toHaveLength(3);
    const first = train[0]!;
    expect(taskItemSchema.safeParse(first).success).toBe(true);
    expect(first).toMatchObject({ id: 'fixture-train-01', taskType: 'easy', references: ['32,118'], files: ['harbor_point_budget_fy2023.txt'] });
    expect(first.question).toMatch(/Fire department/);
    expect(first.sourceDocs).toEqual(['https://example.org/fixture/harbor_point_budget_fy2023?page=2']);
    expect(Object.keys(first).sort()).toEqual(['files', 'id', 'question', 'references', 'sourceDocs', 'taskType']);
    const test = (await environment.loadSplit('test')) as OfficeQaTaskItem[];
    expect(test[0]).toMatchObject({ taskType: 'hard', files: ['harbor_point_budget_fy2023.txt', 'greenleaf_coop_report_2022.txt'] });
  });

  it('returns the same items every time and applies limit', async () => {
    expect(await environment.loadSplit('val')).toEqual(await environment.loadSplit('val'));
    const limited = createEnvironment({ ...FIXTURE_CONFIG, limit: 2 });
    expect((await limited.loadSplit('train')).map((item) => item.id)).toEqual(['fixture-train-01', 'fixture-train-02']);
  });
});

describe('item format', () => {
  it("accepts the original's field names and list fields written as text", async () => {
    const { dir, cleanup } = await splitWith([
      {
        uid: 'UID0001',
        question: ' Q? ',
        ground_truth: 5,
        difficulty: 'Hard',
        source_files: 'a.txt\r\nsub/b.txt',
        source_docs: 'https://x/1?page=2\nhttps://x/2?page=3',
      },
      { id: 'c', question: 'Q?', answer: '1', source_files: '["c.txt", "./c.txt", "d.txt"]' },
      { id: 'e', question: 'Q?', answer: '1', category: null, source_files: 'e.txt, f.txt' },
    ]);
    try {
      const [first, second, third] = await createEnvironment({ split_dir: dir, corpus_dir: dir }).loadSplit('train');
      expect(first).toEqual({
        id: 'UID0001',
        taskType: 'hard',
        question: 'Q?',
        references: ['5'],
        files: ['a.txt', 'sub/b.txt'],
        sourceDocs: ['https://x/1?page=2', 'https://x/2?page=3'],
      });
      expect(second).toEqual({ id: 'c', taskType: 'officeqa', question: 'Q?', references: ['1'], files: ['c.txt', 'd.txt'] });
      expect(third).toMatchObject({ files: ['e.txt', 'f.txt'] });
    } finally {
      await cleanup();
    }
  });

  it('reads list fields like the original loader', () => {
    expect(parseListField(['a', ' b ', ''])).toEqual(['a', 'b']);
    expect(parseListField('["a","b"]')).toEqual(['a', 'b']);
    expect(parseListField('a\r\nb\n')).toEqual(['a', 'b']);
    expect(parseListField('a, b')).toEqual(['a', 'b']);
    expect(parseListField('single.txt')).toEqual(['single.txt']);
    expect(parseListField(undefined)).toEqual([]);
  });

  it.each([
    [{ source_files: ['../etc/passwd'] }, /contains a "\.\." segment/],
    [{ source_files: ['/etc/passwd'] }, /is an absolute path/],
    [{ source_files: ['C:/x.txt'] }, /is an absolute path/],
    [{ source_files: ['a\\b.txt'] }, /backslash/],
    [{ source_files: [] }, /source_files must name at least one document/],
    [{ answer: ' ' }, /answer \(or ground_truth\) must not be blank/],
    [{ category: 'medium' }, /category must be easy or hard/],
    [{ id: '../x' }, /must not contain \//],
  ])('rejects a bad item (%j) with a data-invalid error naming the problem', async (extra, message) => {
    const { dir, cleanup } = await splitWith([rawItem('ok'), rawItem('bad', extra)]);
    try {
      const error = await rejection(createEnvironment({ split_dir: dir, corpus_dir: dir }).loadSplit('train'));
      expect(error.code).toBe(ERROR_CODES.dataInvalid);
      expect(error.message).toContain('index 1');
      expect(error.message).toMatch(message);
    } finally {
      await cleanup();
    }
  });

  it('rejects duplicate ids', async () => {
    const { dir, cleanup } = await splitWith([rawItem('a'), rawItem('a')]);
    try {
      expect((await rejection(createEnvironment({ split_dir: dir, corpus_dir: dir }).loadSplit('train'))).message).toMatch(/duplicate id "a"/);
    } finally {
      await cleanup();
    }
  });
});

describe('ratio mode', () => {
  it('cuts one pool deterministically', async () => {
    const { dir, cleanup } = await temporaryDirectory();
    try {
      const pool = Array.from({ length: 10 }, (_unused, index) => rawItem(`p${index}`));
      await writeJson(path.join(dir, 'pool.json'), pool);
      const load = async () => {
        const environment = createEnvironment({ split_mode: 'ratio', data_path: path.join(dir, 'pool.json'), split_ratio: '2:1:7', corpus_dir: dir });
        return Promise.all((['train', 'val', 'test'] as const).map(async (split) => (await environment.loadSplit(split)).map((item) => item.id)));
      };
      const first = await load();
      expect(first.map((ids) => ids.length)).toEqual([2, 1, 7]);
      expect(await load()).toEqual(first);
    } finally {
      await cleanup();
    }
  });
});

describe('config', () => {
  it('fills defaults, with the original key names', () => {
    expect(parseOfficeQaConfig({ split_dir: 'x', corpus_dir: 'c' })).toEqual({
      split_mode: 'split_dir',
      split_dir: 'x',
      data_path: '',
      split_ratio: '2:1:7',
      split_seed: 42,
      split_output_dir: '',
      limit: 0,
      max_items_file_bytes: 256 * 1024 * 1024,
      data_dirs: [],
      corpus_dir: 'c',
      max_tool_turns: 24,
      max_completion_tokens: 16384,
      exec_timeout: 600,
      max_tool_output_chars: 8000,
      search_mode: 'offline',
      search_provider: 'custom-http',
      search_api_url: '',
      search_auth_env: 'OFFICEQA_CUSTOM_SEARCH_AUTH',
      max_queries_per_turn: 4,
      search_max_num_results: 4,
      search_timeout_seconds: 20,
    });
  });

  it('is strict and says what is wrong', () => {
    expect(manifest.configSchema.safeParse({ ...FIXTURE_CONFIG, max_tool_turn: 3 }).success).toBe(false);
    expect(() => createEnvironment({ split_dir: FIXTURE_SPLIT_DIR })).toThrow(/env.corpus_dir: set corpus_dir or data_dirs/);
    expect(() => createEnvironment({ corpus_dir: 'c' })).toThrow(/env.split_dir: split_mode is split_dir/);
    expect(() => createEnvironment({ ...FIXTURE_CONFIG, search_mode: 'azure_search' })).toThrow(/env.search_mode: "azure_search" .* is not ported/);
    expect(() => createEnvironment({ ...FIXTURE_CONFIG, max_tool_turns: 0 })).toThrow(
      expect.objectContaining({ code: ERROR_CODES.configInvalid, category: 'user' }),
    );
  });

  it('accepts the keys the original officeqa config sets', () => {
    const parsed = manifest.configSchema.safeParse({
      split_mode: 'split_dir',
      split_dir: 'data/officeqa_split',
      data_dirs: ['data/officeqa_docs_official'],
      workers: 4,
      max_tool_turns: 24,
      max_completion_tokens: 16384,
      search_mode: 'offline',
      exec_timeout: 120,
      limit: 0,
    });
    expect(parsed.success).toBe(true);
  });
});
