import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ERROR_CODES, type Environment, type RolloutContext, type RolloutResult, SkillOptError, type TaskItem } from '@skillopt/contract';
import { chatTargetModel, createSplitSource } from '@skillopt/env-kit';
import { writeFileAtomic } from '@skillopt/runtime-kit';
import bridgeScript from './bridge/alfworld_bridge.py';
import { BridgePool } from './bridge-pool.js';
import { BridgeProcess } from './bridge-process.js';
import { CallSlots } from './call-slots.js';
import { type AlfWorldConfig, type AlfWorldConfigInput, parseAlfWorldConfig } from './config.js';
import { playEpisode } from './episode.js';
import initialSkillText from './initial-skill.md';
import { type AlfWorldTaskItem, alfWorldItemMapper, resolveDataFolder, resolveGameFile } from './items.js';
import { readReferenceText } from './reference-text.js';
import { ALFWORLD_TASK_TYPES } from './task-types.js';

/** The env's id: what `env.name` says in a config. */
export const ALFWORLD_ENVIRONMENT_ID = 'alfworld';

/** The initial skill shipped with the package (markdown). */
export const ALFWORLD_INITIAL_SKILL: string = initialSkillText;

/** The bridge script shipped with the package, written to a private folder when the env starts. */
export const ALFWORLD_BRIDGE_SCRIPT: string = bridgeScript;

export interface AlfWorldEnvironmentOptions {
  /** The process environment game paths and `$ALFWORLD_DATA` are read from. Default `process.env`. */
  variables?: NodeJS.ProcessEnv;
  /**
   * Variables set for the bridge process on top of the ones it inherits (PATH, HOME, PYTHONPATH,
   * VIRTUAL_ENV, ALFWORLD_DATA and the locale; nothing else, so no API key reaches it). The bridge
   * always runs with PYTHONDONTWRITEBYTECODE=1.
   */
  bridgeVariables?: Readonly<Record<string, string>>;
}

function asAlfWorldItem(item: TaskItem): AlfWorldTaskItem {
  const gamefile = (item as { gamefile?: unknown }).gamefile;
  if (typeof gamefile !== 'string' || gamefile.trim() === '') {
    throw new SkillOptError({
      code: ERROR_CODES.dataInvalid,
      category: 'user',
      message: `alfworld item ${item.id} has no gamefile; load items with this env's loadSplit`,
      details: { id: item.id },
    });
  }
  return item as AlfWorldTaskItem;
}

/** A game seed that stays the same for an item across runs and resumes, and differs per sample. */
function gameSeed(itemId: string, sampleIndex: number): number {
  let hash = 0;
  for (const character of itemId) hash = (hash * 31 + (character.codePointAt(0) ?? 0)) >>> 0;
  return (hash % 100_000) + sampleIndex;
}

/** The ALFWorld environment for a config section (validated here, so a raw object works too). */
export function createAlfWorldEnvironment(input: AlfWorldConfigInput | AlfWorldConfig = {}, options: AlfWorldEnvironmentOptions = {}): Environment {
  const config = parseAlfWorldConfig(input);
  const variables = options.variables ?? process.env;
  const home = variables.HOME ?? os.homedir();
  const splits = createSplitSource(config, alfWorldItemMapper);
  const dataRoot = resolveDataFolder(config.data_root, variables, home);
  const configFile = config.alfworld_config_file.trim() === '' ? '' : path.resolve(config.alfworld_config_file);
  const callSlots = new CallSlots(config.max_api_workers);

  let bridges: Promise<{ pool: BridgePool; folder: string }> | undefined;
  const start = async (): Promise<{ pool: BridgePool; folder: string }> => {
    if (dataRoot === undefined && configFile === '') {
      throw new SkillOptError({
        code: ERROR_CODES.configInvalid,
        category: 'user',
        message: `alfworld: no ALFWorld data folder: env.data_root is not set and neither is ALFWORLD_DATA. Run alfworld-download (it fills ~/.cache/alfworld), then export ALFWORLD_DATA=<that folder> or set env.data_root.`,
      });
    }
    const folder = await mkdtemp(path.join(os.tmpdir(), 'skillopt-alfworld-'));
    const scriptPath = path.join(folder, 'alfworld_bridge.py');
    await writeFileAtomic(scriptPath, ALFWORLD_BRIDGE_SCRIPT);
    const bridgeOptions = {
      python: config.python,
      scriptPath,
      requestTimeoutMs: config.bridge_timeout_seconds * 1000,
      ...(options.bridgeVariables === undefined ? {} : { extraVariables: options.bridgeVariables }),
    };
    try {
      // One bridge now: a Python without alfworld is a config error before any model call.
      const { bridge } = await BridgeProcess.start(bridgeOptions);
      const pool = new BridgePool(bridgeOptions, config.workers);
      pool.adopt(bridge);
      return { pool, folder };
    } catch (error) {
      await rm(folder, { recursive: true, force: true });
      throw error;
    }
  };
  const ensureStarted = (): Promise<{ pool: BridgePool; folder: string }> => {
    bridges ??= start().catch((error: unknown) => {
      bridges = undefined;
      throw error;
    });
    return bridges;
  };

  const rollout = async (taskItem: TaskItem, context: RolloutContext): Promise<RolloutResult> => {
    const { target, signal, skill } = context;
    signal.throwIfAborted();
    const model = chatTargetModel(target, ALFWORLD_ENVIRONMENT_ID);
    const item = asAlfWorldItem(taskItem);
    const gamefile = resolveGameFile(item.gamefile, config.data_root, variables, home);
    if (gamefile === undefined) {
      throw new SkillOptError({
        code: ERROR_CODES.configInvalid,
        category: 'user',
        message: `alfworld item ${item.id}: its game file ${item.gamefile} is relative, and neither env.data_root nor ALFWORLD_DATA says where the data is. Export ALFWORLD_DATA=<the folder alfworld-download filled>, or set env.data_root.`,
        details: { id: item.id },
      });
    }
    const gameStat = await stat(gamefile).catch(() => undefined);
    if (gameStat === undefined || !gameStat.isFile()) {
      throw new SkillOptError({
        code: ERROR_CODES.dataInvalid,
        category: 'user',
        message: `alfworld item ${item.id}: no game file at ${gamefile}. Run alfworld-download for the game files, and check that env.data_root (or ALFWORLD_DATA) names the folder it filled.`,
        details: { id: item.id, gamefile },
      });
    }
    const { pool } = await ensureStarted();
    const started = Date.now();
    const bridge = await pool.acquire(signal);
    try {
      const episode = await playEpisode({
        bridge,
        load: { gamefile, dataRoot: dataRoot ?? '', seed: gameSeed(item.id, context.sampleIndex), maxSteps: config.max_steps, configFile },
        model,
        skill,
        settings: {
          maxSteps: config.max_steps,
          historyLength: config.history_length,
          maxOutputTokens: config.max_completion_tokens,
          callTimeoutMs: config.exec_timeout * 1000,
        },
        signal,
        withCallSlot: (call) => callSlots.run(call, signal),
      });
      const score = episode.won ? 1 : 0;
      const reference = await readReferenceText(gamefile);
      return {
        status: 'scored',
        id: item.id,
        taskType: item.taskType,
        hard: score,
        soft: score,
        prediction: episode.won ? `won in ${episode.steps} steps` : `not won: ${episode.failureReason ?? ''}`,
        ...(reference === undefined ? {} : { reference }),
        usage: episode.usage,
        durationMs: Date.now() - started,
        trajectory: episode.failureReason === undefined ? { turns: episode.turns } : { turns: episode.turns, failureReason: episode.failureReason },
        details: {
          won: episode.won,
          steps: episode.steps,
          invalidActions: episode.invalidActions,
          modelCalls: episode.modelCalls,
          goal: episode.goal,
          gamefile: item.gamefile,
        },
      };
    } finally {
      // No bridge request is abandoned half-way, so the bridge is idle here whatever ended the
      // game; the next game's load replaces this one. A bridge that failed is dropped by the pool.
      pool.release(bridge);
    }
  };

  return {
    specificationVersion: 'v1',
    id: ALFWORLD_ENVIRONMENT_ID,
    targetKinds: ['chat'],
    taskTypes: ALFWORLD_TASK_TYPES,
    initialSkill: async () => ALFWORLD_INITIAL_SKILL,
    loadSplit: (split) => splits.load(split),
    setup: async () => {
      await ensureStarted();
    },
    rollout,
    teardown: async () => {
      const running = bridges;
      bridges = undefined;
      if (running === undefined) return;
      const { pool, folder } = await running.catch(() => ({ pool: undefined, folder: undefined }));
      await pool?.close();
      if (folder !== undefined) await rm(folder, { recursive: true, force: true });
    },
  };
}
