import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acquireDirectoryLock } from '@skillopt/core';
import { createCheckpointStore } from '../src/checkpoints/checkpoint-store';
import { defaultStateDirectory, projectStateDirectory } from '../src/checkpoints/state-directory';

describe('checkpoints, per project and per source', () => {
  let state: string;
  beforeEach(() => {
    state = mkdtempSync(path.join(os.tmpdir(), 'sleep-state-'));
  });
  afterEach(() => rmSync(state, { recursive: true, force: true }));

  it('has none until a night advances one, and keeps projects and sources apart', async () => {
    const store = createCheckpointStore(state);
    expect(await store.read('/work/a', 'claude-code')).toBeUndefined();
    await store.advance('/work/a', ['claude-code', 'codex'], 1_750_000_000_000);
    expect(await store.read('/work/a', 'claude-code')).toBe(1_750_000_000_000);
    expect(await store.read('/work/a', 'pi')).toBeUndefined();
    expect(await store.read('/work/b', 'claude-code')).toBeUndefined();
    expect(await store.readAll('codex')).toEqual(new Map([['/work/a', 1_750_000_000_000]]));
  });

  it('never moves a checkpoint backward', async () => {
    const store = createCheckpointStore(state);
    await store.advance('/work/a', ['pi'], 2000);
    await store.advance('/work/a', ['pi'], 1000);
    expect(await store.read('/work/a', 'pi')).toBe(2000);
  });

  it('writes one file per project, in its own folder, with the project named inside', async () => {
    const store = createCheckpointStore(state);
    await store.advance('/work/api', ['claude-code'], 5);
    const file = path.join(projectStateDirectory(state, '/work/api'), 'checkpoints.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ format: 1, project: '/work/api', sources: { 'claude-code': 5 } });
    expect(path.basename(path.dirname(file))).toMatch(/^api-[0-9a-f]{12}$/);
    expect(projectStateDirectory(state, '/other/api')).not.toBe(projectStateDirectory(state, '/work/api'));
  });

  it('is refused while another holder has the project’s state locked', async () => {
    const store = createCheckpointStore(state);
    await store.advance('/work/a', ['pi'], 1);
    const lock = await acquireDirectoryLock(projectStateDirectory(state, '/work/a'), { purpose: 'sleep state' });
    try {
      // The holder is this very process under another lock id, so it is not stale: the advance waits, then is refused.
      await expect(store.advance('/work/a', ['pi'], 2)).rejects.toThrow(/lock|held/i);
    } finally {
      await lock.release();
    }
    expect(await store.read('/work/a', 'pi')).toBe(1);
  });

  it('names the damaged file rather than starting over silently', async () => {
    const store = createCheckpointStore(state);
    await store.advance('/work/a', ['pi'], 1);
    const file = path.join(projectStateDirectory(state, '/work/a'), 'checkpoints.json');
    writeFileSync(file, '{"format": 1,');
    await expect(store.read('/work/a', 'pi')).rejects.toThrow(file);
  });

  it('lives in $SKILLOPT_SLEEP_HOME, else ~/.skillopt-sleep', () => {
    expect(defaultStateDirectory({ SKILLOPT_SLEEP_HOME: '/var/sleep' })).toBe('/var/sleep');
    expect(defaultStateDirectory({ HOME: '/home/dev' })).toBe('/home/dev/.skillopt-sleep');
  });
});
