import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SkillOptError } from '@skillopt/contract';
import { z } from 'zod';
import { checkSplitSettings, createSplitSource, parseEnvironmentConfig, splitSettingsShape } from '../src/index';

const itemMapper = z
  .object({ id: z.string(), question: z.string(), answer: z.string() })
  .transform((raw) => ({ id: raw.id, taskType: 'qa', question: raw.question, references: [raw.answer] }));
const configSchema = z.strictObject({ ...splitSettingsShape, flavour: z.string().default('plain') }).superRefine(checkSplitSettings);

describe('the shared split settings', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'env-kit-splits-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  function writePool(count: number): string {
    const pool = path.join(directory, 'pool.jsonl');
    writeFileSync(
      pool,
      Array.from({ length: count }, (_, index) => JSON.stringify({ id: `q${index}`, question: `question ${index}`, answer: `a${index}` })).join('\n'),
    );
    return pool;
  }

  it('cuts a ratio pool deterministically, applies limit, and writes the split when asked', async () => {
    const settings = parseEnvironmentConfig(
      configSchema,
      { split_mode: 'ratio', data_path: writePool(20), split_ratio: '2:1:1', split_output_dir: path.join(directory, 'out'), limit: 3 },
      'demo',
    );
    const first = createSplitSource(settings, itemMapper);
    const second = createSplitSource(settings, itemMapper);
    const train = await first.load('train');
    expect(train).toHaveLength(3);
    expect(await second.load('train')).toEqual(train);
    const written = JSON.parse(readFileSync(path.join(directory, 'out', 'split_manifest.json'), 'utf8')) as { counts: Record<string, number> };
    expect(written.counts).toEqual({ train: 10, val: 5, test: 5 });
  });

  it('applies max_items_file_bytes to the pool and to split files', async () => {
    const pool = writePool(20);
    const ratio = parseEnvironmentConfig(configSchema, { split_mode: 'ratio', data_path: pool, max_items_file_bytes: 100 }, 'demo');
    await expect(createSplitSource(ratio, itemMapper).load('train')).rejects.toThrow(`${pool} is `);
    const splitRoot = path.join(__dirname, 'fixtures', 'qa-split');
    const splitDirectory = parseEnvironmentConfig(configSchema, { split_dir: splitRoot, max_items_file_bytes: 16 }, 'demo');
    await expect(createSplitSource(splitDirectory, itemMapper).load('val')).rejects.toThrow(
      /over the limit of 16 bytes for an items file; raise env\.max_items_file_bytes/,
    );
    expect(parseEnvironmentConfig(configSchema, { split_dir: splitRoot }, 'demo').max_items_file_bytes).toBe(256 * 1024 * 1024);
  });

  it('reads a split root in split_dir mode', async () => {
    const settings = parseEnvironmentConfig(configSchema, { split_dir: path.join(__dirname, 'fixtures', 'qa-split') }, 'demo');
    const items = await createSplitSource(settings, (value) => {
      const raw = value as { key: string; question: string; answers: string[] };
      return { id: raw.key, taskType: 'qa', question: raw.question, references: raw.answers };
    }).load('val');
    expect(items.length).toBeGreaterThan(0);
  });

  it('lists every problem of a config at once, with env.<key> paths', () => {
    const error = (() => {
      try {
        parseEnvironmentConfig(configSchema, { split_mode: 'ratio', split_ratio: 'two to one', flavor: 'x' }, 'demo');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(SkillOptError.isInstance(error) && error.code).toBe('config-invalid');
    const message = (error as Error).message;
    expect(message).toContain('invalid demo config');
    expect(message).toContain('env.data_path');
    expect(message).toContain('env.split_ratio');
    expect(message).toContain('flavor');
  });

  it('asks for split_dir in split_dir mode', () => {
    expect(() => parseEnvironmentConfig(configSchema, {}, 'demo')).toThrow(/env\.split_dir/);
  });
});
