import type { RunEvent } from '@skillopt/contract';

/**
 * The stages a Sleep command goes through, in order, for a front end that shows progress (the MCP
 * server's progress notifications): `harvest` reads the sessions, `mine` turns them into tasks,
 * `replay` replays the tasks with the current rules (each reply judged as it comes: the baseline
 * on the validation tasks, then the training tasks), `consolidate` is the optimizer's proposal,
 * its replay on the validation tasks and the gate's decision, `stage` writes an accepted proposal
 * for review, and `report` writes a dry run's report (a dry run stages nothing).
 */
export const NIGHT_STAGES = ['harvest', 'mine', 'replay', 'consolidate', 'stage', 'report'] as const;
export type NightStage = (typeof NIGHT_STAGES)[number];

export interface NightStageEvent {
  stage: NightStage;
  /** What the stage is doing now, in a line for a person. */
  message: string;
  /** How far the stage is, from 0 to 1, when it can be told (the replays of `replay`). */
  fraction?: number;
  /** The skill whose part of the night this is (`replay`, `consolidate`): its name, its place from 0, and how many the night learns for. */
  skill?: { name: string; index: number; count: number };
}

export type NightStageListener = (event: NightStageEvent) => void;

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * The stage of one of core's run events, told to `onStage`; undefined for the events that say
 * nothing new about where the night is (usage, epochs and steps).
 */
function stageEventOf(event: RunEvent): NightStageEvent | undefined {
  switch (event.type) {
    case 'run-started':
      return {
        stage: 'replay',
        message: `replaying the tasks with the current rules: ${plural(event.splitSizes.val, 'validation task')}, ${plural(event.splitSizes.train, 'training task')}`,
        fraction: 0,
      };
    case 'item-rolled-out': {
      const share = event.total === 0 ? 1 : event.completed / event.total;
      if (event.phase === 'baseline')
        return { stage: 'replay', message: `replayed ${event.completed} of ${event.total} validation tasks with the current rules`, fraction: share / 2 };
      if (event.phase === 'train')
        return { stage: 'replay', message: `replayed ${event.completed} of ${event.total} training tasks`, fraction: 0.5 + share / 2 };
      if (event.phase === 'test') return { stage: 'consolidate', message: `replayed ${event.completed} of ${event.total} test tasks` };
      return { stage: 'consolidate', message: `replayed ${event.completed} of ${event.total} validation tasks with the proposed rules` };
    }
    case 'edits-proposed':
      return { stage: 'consolidate', message: `the optimizer proposed ${plural(event.count, 'edit')} (${event.stage})` };
    case 'stage-failed':
      return { stage: 'consolidate', message: `the optimizer's ${event.stage} failed: ${event.reason}` };
    case 'gate-decided':
      return { stage: 'consolidate', message: `the gate ${event.accepted ? 'accepted' : 'rejected'} the proposal: ${event.reason}` };
    default:
      return undefined;
  }
}

/**
 * The run's `onEvent`, which also tells `onStage` where the night is: each event that moves it
 * on, as its stage. Without `onStage` it is `onEvent` as it was.
 */
export function withNightStages(
  onEvent: ((event: RunEvent) => void) | undefined,
  onStage: NightStageListener | undefined,
): ((event: RunEvent) => void) | undefined {
  if (onStage === undefined) return onEvent;
  return (event) => {
    onEvent?.(event);
    const stage = stageEventOf(event);
    if (stage !== undefined) onStage(stage);
  };
}

/** `onStage` with the skill whose part of a night it reports added to each event. */
export function forSkill(onStage: NightStageListener | undefined, skill: NonNullable<NightStageEvent['skill']>): NightStageListener | undefined {
  if (onStage === undefined) return undefined;
  return (event) => onStage({ ...event, skill });
}
