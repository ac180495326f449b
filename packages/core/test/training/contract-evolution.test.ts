import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES, type ChatModel, type RunEvent } from '@skillopt/contract';
import { acceptBackend, acceptChatModel, checkTargetCapabilities, readEventsFile, readLedgerFile, train } from '../../src/index';
import { createArithmeticEnvironment, createScriptedOptimizer, createScriptedTarget, trainingConfig } from './scripted-training-doubles';
import { temporaryRunDirectories } from './temporary-run-directories';

// Each test trains a run, which a loaded machine slows many times over: the limit is there to
// catch a hang, not to time the run.
jest.setTimeout(300_000);

const runDirectory = temporaryRunDirectories('skillopt-evolution-');

/** A chat model from a future release: the same methods, a specification version this core does not know. */
function modelOfVersion(version: string): ChatModel {
  const model = createScriptedTarget().model;
  return { ...model, generate: model.generate, specificationVersion: version } as unknown as ChatModel;
}

describe('specification versions', () => {
  it('accepts a v1 implementation as it is', () => {
    const model = createScriptedTarget().model;
    expect(acceptChatModel(model, 'the target')).toBe(model);
    const backend = { specificationVersion: 'v1' as const, id: 'mine' };
    expect(acceptBackend(backend, 'the backend "mine"')).toBe(backend);
  });

  it('refuses an implementation that declares v2, naming the version and what this release accepts', () => {
    expect(() => acceptChatModel(modelOfVersion('v2'), 'the optimizer')).toThrow(
      expect.objectContaining({
        code: ERROR_CODES.specificationUnsupported,
        message: expect.stringContaining('the optimizer is a chat model of specification "v2", and this release of SkillOpt accepts chat models of v1'),
      }),
    );
    expect(() => acceptBackend({ id: 'old' }, 'the backend "old"')).toThrow(/specification \(none declared\)/);
  });

  it('refuses a v2 optimizer in train() before the run directory is written', async () => {
    const directory = runDirectory();
    await expect(
      train({
        config: trainingConfig(),
        environment: createArithmeticEnvironment(),
        target: { kind: 'chat', model: createScriptedTarget().model },
        optimizer: modelOfVersion('v2'),
        runDirectory: directory,
      }),
    ).rejects.toMatchObject({ code: ERROR_CODES.specificationUnsupported });
    expect(existsSync(directory)).toBe(false);
  });
});

describe('capabilities', () => {
  const environment = { ...createArithmeticEnvironment(), requiredCapabilities: ['images'] as const };

  it('refuses a target that declares it lacks what the env needs, before the run starts', async () => {
    const blind = { ...createScriptedTarget().model, capabilities: { images: false, tools: true } };
    expect(() => checkTargetCapabilities(environment, { kind: 'chat', model: blind })).toThrow(
      expect.objectContaining({ code: ERROR_CODES.configInvalid, message: expect.stringContaining('declares it cannot do images') }),
    );
    const directory = runDirectory();
    await expect(
      train({
        config: trainingConfig(),
        environment,
        target: { kind: 'chat', model: blind },
        optimizer: createScriptedOptimizer().model,
        runDirectory: directory,
      }),
    ).rejects.toMatchObject({ code: ERROR_CODES.configInvalid });
    expect(existsSync(directory)).toBe(false);
  });

  it('lets through a target that has the capability or does not say', () => {
    const seeing = { ...createScriptedTarget().model, capabilities: { images: true } };
    expect(() => checkTargetCapabilities(environment, { kind: 'chat', model: seeing })).not.toThrow();
    expect(() => checkTargetCapabilities(environment, { kind: 'chat', model: createScriptedTarget().model })).not.toThrow();
  });
});

describe('warnings and tolerant reading in a run', () => {
  it('writes what a model could not honour into the ledger and the usage events', async () => {
    const target = createScriptedTarget().model;
    const warning = { type: 'unsupported-setting' as const, field: 'temperature', message: 'this model ignores temperature' };
    const warningTarget: ChatModel = { ...target, generate: async (request) => ({ ...(await target.generate(request)), warnings: [warning] }) };
    const directory = runDirectory();
    const events: RunEvent[] = [];
    await train({
      config: trainingConfig(),
      environment: createArithmeticEnvironment(),
      target: { kind: 'chat', model: warningTarget },
      optimizer: createScriptedOptimizer().model,
      runDirectory: directory,
      onEvent: (event) => events.push(event),
    });
    const ledger = await readLedgerFile(path.join(directory, 'ledger.jsonl'));
    const paidTargetCalls = ledger.entries.filter((entry) => entry.role === 'target' && !entry.cacheHit);
    expect(paidTargetCalls.length).toBeGreaterThan(0);
    expect(paidTargetCalls.every((entry) => JSON.stringify(entry.warnings) === JSON.stringify([warning]))).toBe(true);
    expect(ledger.entries.filter((entry) => entry.role === 'optimizer').every((entry) => entry.warnings === undefined)).toBe(true);
    const usageEvents = events.filter((event) => event.type === 'usage-recorded' && event.role === 'target');
    expect(usageEvents.length).toBe(paidTargetCalls.length);
    expect(usageEvents.every((event) => event.type === 'usage-recorded' && event.warnings?.[0]?.field === 'temperature')).toBe(true);
  });

  it('reads back complete an events file whose every event carries extra fields, skipping one event from the future', async () => {
    const directory = runDirectory();
    await train({
      config: trainingConfig(),
      environment: createArithmeticEnvironment(),
      target: { kind: 'chat', model: createScriptedTarget().model },
      optimizer: createScriptedOptimizer().model,
      runDirectory: directory,
    });
    const file = path.join(directory, 'events.jsonl');
    const original = await readEventsFile(file);
    expect(original.events.length).toBeGreaterThan(50);
    const extended = original.events.map((event) => ({ ...event, writtenBy: 'skillopt 9.0', details: { nested: [1, 2] } }));
    const future = { type: 'skill-deployed', runId: original.events[0]?.runId, timestamp: new Date(0).toISOString(), target: 'production' };
    const lines = extended.map((event) => JSON.stringify(event));
    lines.splice(5, 0, JSON.stringify(future));
    writeFileSync(file, `${lines.join('\n')}\n`);
    const read = await readEventsFile(file);
    expect(read.events).toEqual(extended);
    expect(read.unknownEventTypes).toEqual({ 'skill-deployed': 1 });
    expect(read.malformedLines).toEqual([]);
  });
});
