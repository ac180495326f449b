import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runEventSchema, type RunEvent } from '@skillopt/contract';
import { createEventBus, createEventsFileSink, readEventsFile, type RunEventInput } from '../../src/events/index';

const clock = () => new Date('2026-03-01T08:00:00.000Z');
const stepStarted: RunEventInput = { type: 'step-started', epoch: 1, step: 1, globalStep: 1, itemIds: ['q1', 'q2'], learningRate: 4 };
const gateDecided: RunEventInput = {
  type: 'gate-decided',
  epoch: 1,
  step: 1,
  globalStep: 1,
  accepted: true,
  strategy: 'strict-greater',
  reason: 'candidate 0.55 > incumbent 0.5',
  candidateScore: 0.55,
  incumbentScore: 0.5,
};

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'skillopt-events-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('the event bus', () => {
  it('fills in the run id and timestamp and delivers to listeners in order', () => {
    const bus = createEventBus({ runId: 'run-7', now: clock });
    const received: string[] = [];
    bus.subscribe((event) => received.push(`a:${event.type}`));
    const unsubscribe = bus.subscribe((event) => received.push(`b:${event.type}`));
    const emitted = bus.emit(stepStarted);
    expect(emitted).toEqual({ ...stepStarted, runId: 'run-7', timestamp: '2026-03-01T08:00:00.000Z' });
    expect(runEventSchema.safeParse(emitted).success).toBe(true);
    unsubscribe();
    bus.emit(gateDecided);
    expect(received).toEqual(['a:step-started', 'b:step-started', 'a:gate-decided']);
  });

  it('keeps a timestamp the producer set', () => {
    const bus = createEventBus({ runId: 'run-7', now: clock });
    expect(bus.emit({ ...stepStarted, timestamp: '2026-01-01T00:00:00.000Z' }).timestamp).toBe('2026-01-01T00:00:00.000Z');
  });

  it('rejects an event that does not satisfy the contract', () => {
    const bus = createEventBus({ runId: 'run-7' });
    expect(() => bus.emit({ ...stepStarted, epoch: 0 })).toThrow(/Invalid step-started event[\s\S]*epoch/);
    expect(() => bus.emit({ ...stepStarted, unexpected: true } as RunEventInput)).toThrow(/unexpected/);
  });

  it('keeps delivering when a listener throws, and reports the failure', () => {
    const failures: string[] = [];
    const bus = createEventBus({ runId: 'run-7', onListenerError: (error, event) => failures.push(`${event.type}: ${(error as Error).message}`) });
    const received: RunEvent[] = [];
    bus.subscribe(() => {
      throw new Error('display broke');
    });
    bus.subscribe((event) => received.push(event));
    bus.emit(stepStarted);
    expect(received).toHaveLength(1);
    expect(failures).toEqual(['step-started: display broke']);
  });
});

describe('events.jsonl', () => {
  it('writes one line per event that reads back as valid run events', async () => {
    const file = path.join(directory, 'run', 'events.jsonl');
    const bus = createEventBus({ runId: 'run-7', now: clock });
    const sink = createEventsFileSink(file);
    bus.subscribe(sink.write);
    bus.emit({ type: 'epoch-started', epoch: 1 });
    bus.emit(stepStarted);
    bus.emit(gateDecided);
    await sink.flush();

    const lines = (await readFile(file, 'utf8')).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('');
    for (const line of lines.slice(0, 3)) expect(runEventSchema.safeParse(JSON.parse(line)).success).toBe(true);
    const content = await readEventsFile(file);
    expect(content.events.map((event) => event.type)).toEqual(['epoch-started', 'step-started', 'gate-decided']);
    expect(content.malformedLines).toEqual([]);
    expect(content.unknownEventTypes).toEqual({});
  });

  it('skips unknown event types and a torn last line when reading', async () => {
    const file = path.join(directory, 'events.jsonl');
    const sink = createEventsFileSink(file);
    const bus = createEventBus({ runId: 'run-7', now: clock });
    const stopWriting = bus.subscribe(sink.write);
    bus.emit({ type: 'epoch-started', epoch: 1 });
    await sink.flush();
    stopWriting();
    await appendFile(file, '{"type":"future-event","runId":"run-7"}\n{"type":"epoch-started"}\n{"type":"epoch-fin');
    const content = await readEventsFile(file);
    expect(content.events).toHaveLength(1);
    expect(content.unknownEventTypes).toEqual({ 'future-event': 1 });
    expect(content.malformedLines).toEqual([
      expect.objectContaining({ lineNumber: 3, reason: expect.stringMatching(/^the epoch-started event does not have what its type requires \(runId: /) }),
    ]);
    expect(content.tornFinalLine).toBe('{"type":"epoch-fin');

    // A new session appends after the torn line without merging into it.
    const resumedSink = createEventsFileSink(file);
    bus.subscribe(resumedSink.write);
    bus.emit({ type: 'epoch-finished', epoch: 1, bestScore: 0.5 });
    await resumedSink.flush();
    expect((await readEventsFile(file)).events.map((event) => event.type)).toEqual(['epoch-started', 'epoch-finished']);
  });
});
