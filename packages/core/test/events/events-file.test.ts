import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readEventsFileFrom } from '../../src/events/index';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'skillopt-events-file-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const base = { runId: 'run-1', timestamp: '2026-12-01T15:00:00.000Z' };
const line = (value: unknown) => `${JSON.stringify(value)}\n`;

describe('readEventsFileFrom', () => {
  it('gives each event the byte offset after its line, past damaged lines, newer event types and multi-byte text', async () => {
    const file = path.join(directory, 'events.jsonl');
    const lines = [
      line({ type: 'epoch-started', ...base, epoch: 1 }),
      'not json\n',
      line({ type: 'a-newer-event', ...base }),
      line({ type: 'stage-failed', ...base, stage: 'reflect', reason: 'ünïcödé — réply' }),
      '\n',
      line({ type: 'epoch-started', ...base, epoch: 2 }),
    ];
    await writeFile(file, lines.join(''));
    const ends = lines.map((_, index) => Buffer.byteLength(lines.slice(0, index + 1).join('')));

    const all = await readEventsFileFrom(file, 0);
    expect(all.events.map((event) => event.type)).toEqual(['epoch-started', 'stage-failed', 'epoch-started']);
    expect(all.eventEndOffsets).toEqual([ends[0], ends[3], ends[5]]);
    expect(all.nextOffset).toBe(ends[5]);
    expect(all.malformedLines).toHaveLength(1);
    expect(all.unknownEventTypes).toEqual({ 'a-newer-event': 1 });

    // From an event's end offset: the events after it, with offsets of the whole file.
    const rest = await readEventsFileFrom(file, ends[3] as number);
    expect(rest.events.map((event) => event.type)).toEqual(['epoch-started']);
    expect(rest.eventEndOffsets).toEqual([ends[5]]);
  });

  it('leaves a line still being written for the next read, and reads it whole once it ends', async () => {
    const file = path.join(directory, 'events.jsonl');
    const first = line({ type: 'epoch-started', ...base, epoch: 1 });
    const second = line({ type: 'epoch-started', ...base, epoch: 2 });
    await writeFile(file, first + second.slice(0, 20));
    const before = await readEventsFileFrom(file, 0);
    expect(before.eventEndOffsets).toEqual([Buffer.byteLength(first)]);
    expect(before.tornFinalLine).toBeUndefined();

    await appendFile(file, second.slice(20));
    const after = await readEventsFileFrom(file, before.nextOffset);
    expect(after.events).toEqual([expect.objectContaining({ type: 'epoch-started', epoch: 2 })]);
    expect(after.eventEndOffsets).toEqual([Buffer.byteLength(first + second)]);
  });

  it('reads a missing file as no events, and a file shorter than the offset from its start', async () => {
    const file = path.join(directory, 'events.jsonl');
    expect(await readEventsFileFrom(file, 0)).toMatchObject({ events: [], eventEndOffsets: [], nextOffset: 0, restarted: false });
    const only = line({ type: 'epoch-started', ...base, epoch: 1 });
    await writeFile(file, only);
    expect(await readEventsFileFrom(file, 10_000)).toMatchObject({ eventEndOffsets: [Buffer.byteLength(only)], restarted: true });
  });
});
