import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSkillopt } from './helpers/command-runner';

// What `skillopt train` says about input it cannot train on: a clear exit 2 that names the split,
// the file and what to change, before anything is estimated or paid for. The searchqa env is found
// by name from the repository root, whose package.json lists it as a user's project would.
const repositoryRoot = path.resolve(__dirname, '..', '..', '..');
const demoSplits = path.join(repositoryRoot, 'datasets', 'demo');

describe('skillopt train on input it cannot train on', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-input-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  function writeConfig(environment: string[]): string {
    const file = path.join(directory, 'train.yaml');
    writeFileSync(
      file,
      [
        'model: {target: sim-target, optimizer: sim-optimizer, target_backend: sim, optimizer_backend: sim}',
        'train: {num_epochs: 1, batch_size: 4}',
        'env:',
        '  name: searchqa',
        ...environment.map((line) => `  ${line}`),
        '',
      ].join('\n'),
    );
    return file;
  }

  function writeSplitRoot(train: unknown[]): string {
    const root = path.join(directory, 'splits');
    for (const split of ['val', 'test']) {
      mkdirSync(path.join(root, split), { recursive: true });
      writeFileSync(path.join(root, split, 'items.json'), readFileSync(path.join(demoSplits, split, 'items.json')));
    }
    mkdirSync(path.join(root, 'train'), { recursive: true });
    writeFileSync(path.join(root, 'train', 'items.json'), JSON.stringify(train));
    return root;
  }

  it('an empty train split file is exit 2, naming the split, the file and what to do', async () => {
    const root = writeSplitRoot([]);
    const config = writeConfig(['split_mode: split_dir', `split_dir: ${root}`]);
    const { error } = await runSkillopt(['train', '--config', config, '--out', path.join(directory, 'run')], repositoryRoot);
    expect(error?.oclif?.exit).toBe(2);
    expect(error?.message).toContain(`the train split is empty: ${path.join(root, 'train', 'items.json')} holds no items`);
    expect(error?.message).toContain('add train items to it, or point env.split_dir at a split root whose train split has items');
    expect(error?.message).not.toContain('RangeError');
  });

  it('a ratio split that leaves train empty is exit 2, naming the pool and env.split_ratio', async () => {
    const pool = path.join(directory, 'pool.jsonl');
    const items = JSON.parse(readFileSync(path.join(demoSplits, 'val', 'items.json'), 'utf8')) as unknown[];
    writeFileSync(
      pool,
      `${items
        .slice(0, 2)
        .map((item) => JSON.stringify(item))
        .join('\n')}\n`,
    );
    const config = writeConfig(['split_mode: ratio', `data_path: ${pool}`, 'split_ratio: "1:5:5"']);
    const { error } = await runSkillopt(['train', '--config', config, '--out', path.join(directory, 'run')], repositoryRoot);
    expect(error?.oclif?.exit).toBe(2);
    expect(error?.message).toContain(`the train split is empty: env.split_ratio 1:5:5 of the 2 items in ${pool} leaves none for train`);
  });

  it('a split file over env.max_items_file_bytes is exit 2, naming the file, the limit and the key', async () => {
    const root = writeSplitRoot(JSON.parse(readFileSync(path.join(demoSplits, 'train', 'items.json'), 'utf8')) as unknown[]);
    // Only train is over the limit: the splits load together, so any other file over it could be reported first.
    for (const split of ['val', 'test']) {
      const [first] = JSON.parse(readFileSync(path.join(demoSplits, split, 'items.json'), 'utf8')) as unknown[];
      writeFileSync(path.join(root, split, 'items.json'), JSON.stringify([first]));
    }
    const config = writeConfig(['split_mode: split_dir', `split_dir: ${root}`, 'max_items_file_bytes: 1000']);
    const { error } = await runSkillopt(['train', '--config', config, '--out', path.join(directory, 'run')], repositoryRoot);
    expect(error?.oclif?.exit).toBe(2);
    expect(error?.message).toMatch(/train[/\\]items\.json is \d+ bytes, over the limit of 1000 bytes for an items file; raise env\.max_items_file_bytes/);
  });
});
