import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SkillOptError, type TaskItem } from '@skillopt/contract';
import { z } from 'zod';
import {
  isDataInvalidError,
  loadItemsFile,
  loadSplitDirectory,
  loadSplitItems,
  mapRawItems,
  readJsonArrayFile,
  readJsonLinesFile,
  readRawItemsFile,
  resolveSplitFile,
  writeSplitDirectory,
} from '../src/index';
import { QA_SPLIT_ROOT } from './qa-environment';

const qaItemSchema = z
  .object({ key: z.string().min(1), question: z.string(), answers: z.array(z.string()) })
  .transform((raw) => ({ id: raw.key, taskType: 'qa', question: raw.question, references: raw.answers }));

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'env-kit-splits-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function write(relativePath: string, text: string): Promise<string> {
  const file = path.join(directory, relativePath);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text, 'utf8');
  return file;
}

async function caught(promise: Promise<unknown>): Promise<SkillOptError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!SkillOptError.isInstance(error)) throw new Error(`expected a SkillOptError, got ${String(error)}`);
  return error;
}

describe('reading split files', () => {
  it('reads a JSON array with each item located by index', async () => {
    const file = await write('items.json', '[{"id": "a"}, {"id": "b"}]');
    expect(await readJsonArrayFile(file)).toEqual([
      { value: { id: 'a' }, source: { file, index: 0 } },
      { value: { id: 'b' }, source: { file, index: 1 } },
    ]);
  });

  it('accepts a byte-order mark', async () => {
    const file = await write('items.json', '\ufeff[1]');
    expect((await readJsonArrayFile(file)).map((item) => item.value)).toEqual([1]);
  });

  it('rejects invalid JSON and a non-array as data-invalid user errors', async () => {
    const broken = await caught(readJsonArrayFile(await write('broken.json', '[{"id": ')));
    expect(broken.code).toBe('data-invalid');
    expect(broken.category).toBe('user');
    expect(broken.message).toMatch(/broken\.json is not valid JSON/);
    const object = await caught(readJsonArrayFile(await write('object.json', '{"data": []}')));
    expect(object.message).toMatch(/object\.json must hold a JSON array of items, found object/);
  });

  it('reads JSON Lines, skipping blank lines and keeping line numbers', async () => {
    const file = await write('items.jsonl', '{"id": "a"}\r\n\n  \n{"id": "b"}\n');
    expect(await readJsonLinesFile(file)).toEqual([
      { value: { id: 'a' }, source: { file, index: 0, line: 1 } },
      { value: { id: 'b' }, source: { file, index: 1, line: 4 } },
    ]);
  });

  it('names the file and line of a malformed JSON Lines line instead of skipping it', async () => {
    const file = await write('items.jsonl', '{"id": "a"}\n{"id": "b"\n{"id": "c"}\n');
    const error = await caught(readJsonLinesFile(file));
    expect(error.code).toBe('data-invalid');
    expect(error.message).toContain(`${file} line 2 is not valid JSON`);
    expect(error.details).toEqual({ file, line: 2 });
  });

  it('chooses the reader by extension and rejects others', async () => {
    expect(await readRawItemsFile(await write('a.ndjson', '1\n2\n'))).toHaveLength(2);
    const error = await caught(readRawItemsFile(await write('a.csv', 'id\n1\n')));
    expect(error.message).toMatch(/unsupported split file type "\.csv"/);
  });

  it('refuses a JSON or JSON Lines file over the size limit, naming the file, its size, the limit and the key', async () => {
    const items = '[{"id": "a"}, {"id": "b"}]';
    for (const file of [await write('big.json', items), await write('big.jsonl', '{"id": "a"}\n{"id": "b"}\n')]) {
      const error = await caught(readRawItemsFile(file, { maxBytes: 10 }));
      expect(error.code).toBe('data-invalid');
      expect(error.category).toBe('user');
      expect(error.message).toContain(`${file} is `);
      expect(error.message).toContain('over the limit of 10 bytes');
      expect(error.message).toContain('env.max_items_file_bytes');
      expect(error.details).toMatchObject({ file, maxBytes: 10, key: 'env.max_items_file_bytes' });
    }
    // At the limit exactly, the file is read.
    expect(await readJsonArrayFile(await write('fits.json', items), { maxBytes: Buffer.byteLength(items) })).toHaveLength(2);
  });

  it('names the file and line of bytes that are not UTF-8, in JSON Lines and JSON arrays alike', async () => {
    const latin1 = Buffer.from('{"id": "caf\xe9"}', 'latin1');
    const lines = path.join(directory, 'items.jsonl');
    await writeFile(lines, Buffer.concat([Buffer.from('{"id": "a"}\n{"id": "b"}\n'), latin1, Buffer.from('\n')]));
    const lineError = await caught(readJsonLinesFile(lines));
    expect(lineError.code).toBe('data-invalid');
    expect(lineError.message).toBe(`${lines} line 3 is not valid UTF-8; save the file as UTF-8`);
    expect(lineError.details).toEqual({ file: lines, line: 3 });
    const array = path.join(directory, 'items.json');
    await writeFile(array, Buffer.concat([Buffer.from('[\n  {"id": "a"},\n  '), latin1, Buffer.from('\n]\n')]));
    expect((await caught(readJsonArrayFile(array))).message).toBe(`${array} line 3 is not valid UTF-8; save the file as UTF-8`);
  });

  it('reads multi-byte UTF-8 and a byte-order mark as text', async () => {
    const file = path.join(directory, 'items.jsonl');
    await writeFile(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"id": "café 東京 🎉"}\n', 'utf8')]));
    expect((await readJsonLinesFile(file)).map((item) => item.value)).toEqual([{ id: 'café 東京 🎉' }]);
  });

  it('reports a missing file as data-invalid', async () => {
    const error = await caught(readRawItemsFile(path.join(directory, 'missing.json')));
    expect(error.message).toMatch(/cannot read split file .*missing\.json/);
  });
});

describe('mapping raw items to TaskItems', () => {
  it('maps through a zod schema with a transform', async () => {
    const file = await write('items.json', JSON.stringify([{ key: 'q1', question: 'Why?', answers: ['Because'] }]));
    expect(await loadItemsFile(file, qaItemSchema)).toEqual([{ id: 'q1', taskType: 'qa', question: 'Why?', references: ['Because'] }]);
  });

  it('reports the file, index and zod message of an invalid item', async () => {
    const file = await write('items.json', JSON.stringify([{ key: 'q1', question: 'Why?', answers: [] }, { key: 'q2' }]));
    const error = await caught(loadItemsFile(file, qaItemSchema));
    expect(error.code).toBe('data-invalid');
    expect(error.category).toBe('user');
    expect(error.message).toBe(
      `${file} index 1: question: Invalid input: expected string, received undefined; answers: Invalid input: expected array, received undefined`,
    );
    expect(error.details).toEqual({ file, index: 1 });
  });

  it('reports the line of an invalid JSON Lines item', async () => {
    const file = await write('items.jsonl', '\n{"key": "q1", "question": "Why?", "answers": []}\n{"key": 5}\n');
    const error = await caught(loadItemsFile(file, qaItemSchema));
    expect(error.message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} line 3 \\(index 1\\): key: `));
  });

  it('maps through a function and wraps what it throws', () => {
    const raw = [
      { value: 'alpha', source: { file: 'f.json', index: 0 } },
      { value: '', source: { file: 'f.json', index: 1 } },
    ];
    const mapper = (value: unknown): TaskItem => {
      if (typeof value !== 'string' || value === '') throw new Error('empty name');
      return { id: value, taskType: 'name' };
    };
    expect(mapRawItems(raw.slice(0, 1), mapper)).toEqual([{ id: 'alpha', taskType: 'name' }]);
    expect(() => mapRawItems(raw, mapper)).toThrow('f.json index 1: empty name');
  });

  it('checks that the mapper returned a TaskItem', () => {
    const raw = [{ value: {}, source: { file: 'f.json', index: 0 } }];
    expect(() => mapRawItems(raw, () => ({ id: 'x', taskType: '' }))).toThrow(
      /f\.json index 0: the mapper returned something that is not a TaskItem: taskType: /,
    );
  });

  it('rejects duplicate ids, naming both places', () => {
    const raw = ['a', 'b', 'a'].map((id, index) => ({ value: { id, taskType: 't' }, source: { file: 'f.jsonl', index, line: index + 1 } }));
    let error: unknown;
    try {
      mapRawItems(raw, (value) => value as TaskItem);
    } catch (caughtError) {
      error = caughtError;
    }
    expect(isDataInvalidError(error)).toBe(true);
    expect((error as Error).message).toBe('f.jsonl line 3 (index 2): duplicate id "a" (first seen at f.jsonl line 1 (index 0))');
  });

  it('passes extra fields through a loose schema', async () => {
    const file = await write('items.json', JSON.stringify([{ id: 'a', taskType: 't', image: 'a.png' }]));
    const schema = z.looseObject({ id: z.string(), taskType: z.string() });
    expect(await loadItemsFile(file, schema)).toEqual([{ id: 'a', taskType: 't', image: 'a.png' }]);
  });
});

describe('split directories', () => {
  it('loads each accepted layout (the fixture mixes three of them)', async () => {
    const splits = await loadSplitDirectory(QA_SPLIT_ROOT, qaItemSchema);
    expect(splits.train.map((item) => item.id)).toEqual(['qa-001', 'qa-002', 'qa-003', 'qa-004']);
    expect(splits.val.map((item) => item.id)).toEqual(['qa-101', 'qa-102']);
    expect(splits.test.map((item) => item.id)).toEqual(['qa-201', 'qa-202']);
    expect(splits.val[0]).toEqual({
      id: 'qa-101',
      taskType: 'qa',
      question: 'How many legs does a spider have?',
      references: ['8', 'eight'],
    });
  });

  it('resolves <split>/items.json, <split>/items.jsonl, <split>.json and <split>.jsonl', async () => {
    await write('a/train/items.json', '[]');
    await write('b/train/items.jsonl', '');
    await write('c/train.json', '[]');
    await write('d/train.jsonl', '');
    expect(await resolveSplitFile(path.join(directory, 'a'), 'train')).toBe(path.join(directory, 'a', 'train', 'items.json'));
    expect(await resolveSplitFile(path.join(directory, 'b'), 'train')).toBe(path.join(directory, 'b', 'train', 'items.jsonl'));
    expect(await resolveSplitFile(path.join(directory, 'c'), 'train')).toBe(path.join(directory, 'c', 'train.json'));
    expect(await resolveSplitFile(path.join(directory, 'd'), 'train')).toBe(path.join(directory, 'd', 'train.jsonl'));
  });

  it('rejects a missing split, listing where it looked', async () => {
    await write('validation.json', '[]');
    const error = await caught(resolveSplitFile(directory, 'val'));
    expect(error.code).toBe('data-invalid');
    expect(error.message).toMatch(/^no val split under .*; looked for .*val[/\\]items\.json, .*val[/\\]items\.jsonl, .*val\.json, .*val\.jsonl$/);
  });

  it('rejects an ambiguous split', async () => {
    await write('train/items.json', '[]');
    await write('train.jsonl', '');
    const error = await caught(resolveSplitFile(directory, 'train'));
    expect(error.message).toMatch(/the train split under .* is ambiguous: .*items\.json and .*train\.jsonl all exist/);
  });

  it('rejects an id that is in two splits', async () => {
    await write('train.json', JSON.stringify([{ id: 'x', taskType: 't' }]));
    await write('val.json', '[]');
    await write('test.json', JSON.stringify([{ id: 'x', taskType: 't' }]));
    const error = await caught(loadSplitDirectory(directory, (value) => value as TaskItem));
    expect(error.message).toMatch(/id "x" is in both the train and the test split/);
  });

  it('loads one split with loadSplitItems', async () => {
    const items = await loadSplitItems(QA_SPLIT_ROOT, 'test', qaItemSchema);
    expect(items.map((item) => item.references)).toEqual([['Rome'], ['carbon dioxide', 'CO2']]);
  });

  it('writes a split directory that loads back, with a manifest', async () => {
    const splits = {
      train: [{ id: 'a', taskType: 't' }],
      val: [],
      test: [{ id: 'b', taskType: 't', question: 'Ünïcode?' }],
    };
    const manifest = { splitMode: 'ratio', splitRatio: '2:1:7', splitSeed: 42, counts: { train: 1, val: 0, test: 1 } };
    const written = await writeSplitDirectory(directory, splits, { manifest });
    expect(written.map((file) => path.relative(directory, file).split(path.sep).join('/'))).toEqual([
      'train/items.json',
      'val/items.json',
      'test/items.json',
      'split_manifest.json',
    ]);
    expect(await loadSplitDirectory(directory, (value) => value as TaskItem)).toEqual(splits);
    expect(JSON.parse(await readFile(path.join(directory, 'split_manifest.json'), 'utf8'))).toEqual(manifest);
    expect(await readFile(path.join(directory, 'test', 'items.json'), 'utf8')).toContain('"question": "Ünïcode?"');
  });
});
