import { addUsage, type ChatModel, type TrajectoryTurn, type Usage } from '@skillopt/contract';
import { generateWithin } from '@skillopt/env-kit';
import { projectAction } from './action-projection.js';
import type { BridgeProcess, LoadGameRequest } from './bridge-process.js';
import { buildSystemPrompt, buildUserPrompt, goalOf, type PastStep } from './prompt.js';

const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0 };

export interface EpisodeSettings {
  maxSteps: number;
  historyLength: number;
  maxOutputTokens: number;
  /** How long one target call may take; 0 = no limit. */
  callTimeoutMs: number;
}

/** How one game went. */
export interface Episode {
  won: boolean;
  steps: number;
  goal: string;
  failureReason?: string;
  invalidActions: number;
  modelCalls: number;
  usage: Usage;
  turns: TrajectoryTurn[];
  /** The actions sent, in order. */
  actions: string[];
}

/** How much of one reply the trajectory keeps (the model's reasoning can be long). */
export const TRAJECTORY_REPLY_CHARS = 600;

function shorten(text: string): string {
  return text.length <= TRAJECTORY_REPLY_CHARS
    ? text
    : `${text.slice(0, TRAJECTORY_REPLY_CHARS)} [... ${text.length - TRAJECTORY_REPLY_CHARS} more characters]`;
}

/** The feedback of an episode as the optimizer reads it. */
export function describeEpisodeEnd(episode: Pick<Episode, 'won' | 'failureReason' | 'goal' | 'steps' | 'invalidActions'>, maxSteps: number): string {
  return [
    episode.won ? 'Evaluation: won' : `Evaluation: not won (${episode.failureReason ?? 'unknown'})`,
    `Goal: ${episode.goal}`,
    `Steps: ${episode.steps} of at most ${maxSteps}; actions that were not valid: ${episode.invalidActions}`,
  ].join('\n');
}

/**
 * Plays one game to its end: each step, one target call with the goal, the recent steps, the
 * observation and the admissible actions; the reply projected to an action and sent to the game.
 * The game ends when it says it is done, or after `maxSteps` actions. Bridge and model failures
 * are thrown (infrastructure, for core to retry and exclude); only the game decides the score.
 */
export async function playEpisode(options: {
  bridge: BridgeProcess;
  load: LoadGameRequest;
  model: ChatModel;
  skill: string;
  settings: EpisodeSettings;
  signal: AbortSignal;
  /** Runs one target call when a slot is free (the env's cap on calls in flight). */
  withCallSlot: <Value>(call: () => Promise<Value>) => Promise<Value>;
}): Promise<Episode> {
  const { bridge, model, settings, signal } = options;
  let state = await bridge.load(options.load);
  const goal = goalOf(state.observation) ?? 'the goal stated in the first observation';
  const system = buildSystemPrompt(options.skill);
  const turns: TrajectoryTurn[] = [{ role: 'user', content: state.observation }];
  const history: PastStep[] = [];
  const actions: string[] = [];
  let usage = ZERO_USAGE;
  let invalidActions = 0;
  let modelCalls = 0;

  while (!state.done && !state.won && actions.length < settings.maxSteps) {
    signal.throwIfAborted();
    const step = actions.length + 1;
    const user = buildUserPrompt({
      goal,
      recentSteps: settings.historyLength === 0 ? [] : history.slice(-settings.historyLength),
      observation: state.observation,
      step,
      maxSteps: settings.maxSteps,
      admissible: state.admissible,
    });
    const reply = await options.withCallSlot(() =>
      generateWithin(
        model,
        {
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
          maxOutputTokens: settings.maxOutputTokens,
          purpose: 'rollout',
        },
        signal,
        settings.callTimeoutMs,
      ),
    );
    modelCalls += 1;
    usage = addUsage(usage, reply.usage);
    // An empty reply is the original's "look": the game goes on, the step is used up.
    const projected = reply.text.trim() === '' ? { action: 'look', valid: false, problem: 'the reply was empty' } : projectAction(reply.text, state.admissible);
    if (!projected.valid) invalidActions += 1;
    state = await bridge.step(projected.action);
    actions.push(projected.action);
    history.push({ step, action: projected.action, observation: state.observation });
    turns.push({ role: 'assistant', content: shorten(reply.text) });
    const note = projected.valid ? '' : ` (not valid: ${projected.problem})`;
    turns.push({ role: 'environment', content: `Action: ${projected.action}${note}\nObservation: ${state.observation}` });
  }

  const won = state.won;
  const episode: Episode = { won, steps: actions.length, goal, invalidActions, modelCalls, usage, turns, actions };
  if (!won)
    episode.failureReason =
      state.done && actions.length < settings.maxSteps ? 'Episode ended without completing the task' : `Timeout after ${actions.length} steps`;
  turns.push({ role: 'environment', content: describeEpisodeEnd(episode, settings.maxSteps) });
  return episode;
}
