import type { HarvestedSession } from '../harvest/session-record.js';
import { assignSplits, type SplitFractions } from '../tasks/split-assignment.js';
import type { TaskRecord } from '../tasks/task-record.js';
import { heuristicMine } from './heuristic-miner.js';
import type { LlmMiner, SessionMiningFailure } from './llm-miner.js';
import { deduplicateTasks } from './task-deduplication.js';

export interface MineOptions extends SplitFractions {
  /** Tasks kept after deduplication and filtering. */
  maxTasks: number;
  /** Tasks the heuristic miner may produce before they are deduplicated and cut to `maxTasks`. */
  candidateLimit: number;
  llmMiner?: LlmMiner;
  /** Keeps the tasks that bear on the skill being trained (see filterTasksForTarget); all when absent. */
  targetFilter?: (tasks: TaskRecord[]) => TaskRecord[];
  signal?: AbortSignal;
}

export interface MinedTasks {
  tasks: TaskRecord[];
  /** `llm` when the model's tasks were used; `heuristic` when there was no miner or it found none. */
  miner: 'llm' | 'heuristic';
  /** Sessions whose miner replies could not be read: reported, never taken as sessions without tasks. */
  failures: SessionMiningFailure[];
}

/**
 * A night's tasks from its sessions: the LLM miner's when it finds any, else the heuristic
 * miner's; merged by id, filtered to the target skill, cut to `maxTasks`, then split. Provider
 * errors of the LLM miner are thrown, not turned into an empty list as in the original, so a
 * broken backend fails the night instead of quietly mining without a model.
 */
export async function mineTasks(sessions: readonly HarvestedSession[], options: MineOptions): Promise<MinedTasks> {
  let mined: TaskRecord[] = [];
  let failures: SessionMiningFailure[] = [];
  if (options.llmMiner !== undefined) {
    const mining = await options.llmMiner(sessions, options.signal);
    mined = mining.tasks;
    failures = mining.failures;
  }
  const miner = mined.length > 0 ? 'llm' : 'heuristic';
  if (miner === 'heuristic') mined = heuristicMine(sessions, { maxTasks: options.candidateLimit });
  const unique = deduplicateTasks(mined);
  const relevant = options.targetFilter === undefined ? unique : options.targetFilter(unique);
  const fractions: SplitFractions = {
    ...(options.valFraction === undefined ? {} : { valFraction: options.valFraction }),
    ...(options.testFraction === undefined ? {} : { testFraction: options.testFraction }),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
  };
  return { tasks: assignSplits(relevant.slice(0, options.maxTasks), fractions), miner, failures };
}
