import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { listRuns, readRunListEntry, type RunListEntry } from '../../src/run-reader/index';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'skillopt-run-listing-'));
  for (const name of ['a', 'b']) {
    await mkdir(path.join(folder, name));
    await writeFile(path.join(folder, name, 'config.json'), '{}\n');
  }
  await mkdir(path.join(folder, 'notes'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('listRuns', () => {
  it('lists every run directory of the folder by name, with readRunListEntry by default', async () => {
    const runs = await listRuns(folder);
    expect(runs.map((entry) => entry.name)).toEqual(['a', 'b']);
    expect(runs[0]).toEqual(await readRunListEntry(path.join(folder, 'a'), 'a'));
  });

  it('reads each entry with the reader it is given, and lists what that reader throws for as unreadable', async () => {
    const asked: string[] = [];
    const runs = await listRuns(folder, {
      async readEntry(directory, name): Promise<RunListEntry> {
        asked.push(name);
        if (name === 'b') throw new Error('b cannot be read\nsecond line');
        return readRunListEntry(directory, name);
      },
    });
    expect(asked).toEqual(['a', 'b']);
    expect(runs[0]).toMatchObject({ kind: 'run', name: 'a', status: 'not started' });
    expect(runs[1]).toEqual({ kind: 'unreadable', name: 'b', directory: path.join(folder, 'b'), problem: 'b cannot be read' });
  });
});
