import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ERROR_CODES, ProviderError, SkillOptError } from '@skillopt/contract';
import { ALFWORLD_BRIDGE_SCRIPT, BridgePool, BridgeProcess, type BridgeProcessOptions } from '../src/index';
import { DEBIAN_PYTHON, FAKE_ALFWORLD_PATH, FIXTURE_DATA_ROOT, FIXTURE_SPLIT_DIR, readHouse, winningActions } from './helpers';

let directory = '';
let options: BridgeProcessOptions;
const trainItems = JSON.parse(readFileSync(path.join(FIXTURE_SPLIT_DIR, 'train', 'items.json'), 'utf8')) as Array<{ gamefile: string; task_type: string }>;
const heatGame = trainItems.find((item) => item.task_type === 'pick_heat_then_place_in_recep') as { gamefile: string };

beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'env-alfworld-bridge-'));
  const scriptPath = path.join(directory, 'alfworld_bridge.py');
  writeFileSync(scriptPath, ALFWORLD_BRIDGE_SCRIPT);
  options = { python: DEBIAN_PYTHON, scriptPath, requestTimeoutMs: 20_000, extraVariables: { PYTHONPATH: FAKE_ALFWORLD_PATH } };
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const load = (gamefile: string) => ({ gamefile, dataRoot: FIXTURE_DATA_ROOT, seed: 1, maxSteps: 50, configFile: '' });

/** A copy of the heat game whose engine fails as `fault` says. */
function faultyGame(name: string, fault: Record<string, unknown>): string {
  const source = path.join(FIXTURE_DATA_ROOT, heatGame.gamefile);
  const folder = path.join(directory, 'games', name);
  mkdirSync(folder, { recursive: true });
  const game = JSON.parse(readFileSync(source, 'utf8')) as Record<string, unknown>;
  writeFileSync(path.join(folder, 'game.tw-pddl'), JSON.stringify({ ...game, fault }));
  writeFileSync(path.join(folder, 'traj_data.json'), readFileSync(path.join(path.dirname(source), 'traj_data.json')));
  return path.join(folder, 'game.tw-pddl');
}

describe('the shipped bridge script under Debian python3, against the stand-in alfworld module', () => {
  it('says it is ready, loads a game, plays it to a win over JSON lines, and closes', async () => {
    const { bridge, versions } = await BridgeProcess.start(options);
    expect(versions).toMatchObject({ ready: true, alfworld: '0.0.0-skillopt-fake', python: expect.stringMatching(/^3\./) });
    const opening = await bridge.load(load(path.join(FIXTURE_DATA_ROOT, heatGame.gamefile)));
    expect(opening.observation).toMatch(/^-= Welcome to TextWorld, ALFRED! =-/);
    expect(opening.observation).toContain('Your task is to: put a hot apple in countertop.');
    expect(opening).toMatchObject({ won: false, done: false, score: 0 });
    expect(opening.admissible).toEqual(expect.arrayContaining(['go to microwave 1', 'look', 'inventory', 'help']));

    const actions = winningActions(readHouse(heatGame.gamefile));
    let state = opening;
    for (const action of actions) {
      expect(state.admissible).toContain(action);
      expect(state.won).toBe(false);
      state = await bridge.step(action);
    }
    expect(state).toMatchObject({ won: true, done: true, score: 1 });
    expect(actions).toContain('heat apple 1 with microwave 1');
    await bridge.close();
    expect(bridge.usable).toBe(false);
  });

  it('answers an action the game does not accept with its own feedback, not an error', async () => {
    const { bridge } = await BridgeProcess.start(options);
    await bridge.load(load(path.join(FIXTURE_DATA_ROOT, heatGame.gamefile)));
    const state = await bridge.step('dance with the fridge');
    expect(state).toMatchObject({ observation: 'Nothing happens.', won: false, done: false });
    await bridge.close();
  });

  it('is a config error naming the install when the Python has no alfworld', async () => {
    const error = await BridgeProcess.start({ ...options, extraVariables: {} }).catch((caught: unknown) => caught);
    expect(SkillOptError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: ERROR_CODES.configInvalid, category: 'user' });
    expect((error as Error).message).toContain(`ALFWorld cannot be imported by ${DEBIAN_PYTHON}: ModuleNotFoundError`);
    expect((error as Error).message).toContain(`${DEBIAN_PYTHON} -m pip install alfworld`);
  });

  it('is a retryable process failure, with the bridge stopped, when the engine process dies mid-game', async () => {
    const { bridge } = await BridgeProcess.start(options);
    await bridge.load(load(faultyGame('crash', { on: 'step', after: 2, kind: 'crash' })));
    await bridge.step('go to countertop 1');
    const error = await bridge.step('go to countertop 2').catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: ERROR_CODES.processCrashed, retryable: true, provider: 'alfworld-bridge' });
    expect((error as Error).message).toMatch(/stopped while the action "go to countertop 2": exited with code 7/);
    expect(bridge.usable).toBe(false);
    await expect(bridge.step('look')).rejects.toMatchObject({ code: ERROR_CODES.processCrashed });
  });

  it('stops a bridge that hangs, as a retryable timeout', async () => {
    const { bridge } = await BridgeProcess.start({ ...options, requestTimeoutMs: 1_500 });
    const error = await bridge.load(load(faultyGame('hang', { on: 'load', kind: 'hang' }))).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: ERROR_CODES.processTimeout, retryable: true });
    expect((error as Error).message).toMatch(/did not answer within 2 s while loading .*game\.tw-pddl, so it was stopped/);
    expect(bridge.usable).toBe(false);
  });

  it('passes an engine exception on as a retryable failure, and does not use that bridge again', async () => {
    const { bridge } = await BridgeProcess.start(options);
    const error = await bridge.load(load(faultyGame('raise', { on: 'load', kind: 'error' }))).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: ERROR_CODES.processCrashed, retryable: true });
    expect((error as Error).message).toContain('RuntimeError: the game engine failed');
    expect(bridge.usable).toBe(false);
  });

  it('writes no bytecode next to the alfworld it imports, so a run leaves that source tree as it was', async () => {
    const standIn = path.join(directory, 'stand-in-copy');
    cpSync(FAKE_ALFWORLD_PATH, standIn, { recursive: true, filter: (source) => path.basename(source) !== '__pycache__' });
    const { bridge } = await BridgeProcess.start({ ...options, extraVariables: { PYTHONPATH: standIn } });
    await bridge.load(load(path.join(FIXTURE_DATA_ROOT, heatGame.gamefile)));
    await bridge.close();
    const files = readdirSync(standIn, { recursive: true, encoding: 'utf8' });
    expect(files).toContain(path.join('alfworld', 'agents', 'environment', 'alfred_tw_env.py'));
    expect(files.filter((file) => file.includes('__pycache__') || file.endsWith('.pyc'))).toEqual([]);
  });

  it('reports a missing game file as a failed load', async () => {
    const { bridge } = await BridgeProcess.start(options);
    await expect(bridge.load(load(path.join(directory, 'nowhere', 'game.tw-pddl')))).rejects.toThrow(/FileNotFoundError: no game file at/);
  });
});

describe('BridgePool', () => {
  it('reuses one bridge for games played one after another, and never runs more than its size', async () => {
    const pool = new BridgePool(options, 2);
    const signal = new AbortController().signal;
    const first = await pool.acquire(signal);
    await first.load(load(path.join(FIXTURE_DATA_ROOT, heatGame.gamefile)));
    pool.release(first);
    const again = await pool.acquire(signal);
    expect(again).toBe(first);
    const second = await pool.acquire(signal);
    expect(second).not.toBe(first);
    expect(pool.liveCount).toBe(2);

    // Full: the third game waits until one is released.
    let third: BridgeProcess | undefined;
    const waiting = pool.acquire(signal).then((bridge) => (third = bridge));
    await new Promise((resolve) => setImmediate(resolve));
    expect(third).toBeUndefined();
    pool.release(second);
    await waiting;
    expect(third).toBe(second);
    expect(pool.liveCount).toBe(2);

    // A failed bridge is dropped and replaced.
    await first.kill();
    pool.release(first);
    expect(pool.liveCount).toBe(1);
    const replacement = await pool.acquire(signal);
    expect(replacement).not.toBe(first);
    expect(replacement.usable).toBe(true);
    pool.release(replacement);
    pool.release(third as BridgeProcess);
    await pool.close();
    expect(pool.liveCount).toBe(0);
    await expect(pool.acquire(signal)).rejects.toThrow(/closed/);
  });
});
