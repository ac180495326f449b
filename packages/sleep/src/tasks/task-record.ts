/**
 * A task Sleep mined from a developer's sessions, to replay with a skill and judge: the request,
 * how to tell a good answer (a reference, a rubric or rule checks), and which split it belongs to.
 * Task files (`skillopt.sleep.tasks.v1`) hold these records as written here; the original's
 * snake_case task files are read too.
 */

export const TASK_SPLITS = ['train', 'val', 'test'] as const;
export type TaskSplit = (typeof TASK_SPLITS)[number];

/** How the session that asked for it ended, as its feedback tells. */
export const TASK_OUTCOMES = ['success', 'fail', 'mixed', 'unknown'] as const;
export type TaskOutcome = (typeof TASK_OUTCOMES)[number];

/** How a replayed answer is scored: against an exact answer, by a rubric, by rule checks, or not at all. */
export const REFERENCE_KINDS = ['exact', 'rubric', 'rule', 'none'] as const;
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];

/** `real`: asked in a session; `dream`: a variation Sleep made up, which never sits in val or test. */
export const TASK_ORIGINS = ['real', 'dream'] as const;
export type TaskOrigin = (typeof TASK_ORIGINS)[number];

/** One rule check: an operator (`contains`, `regex`, `max_chars`, …) and its argument. */
export interface RuleCheck {
  op: string;
  arg?: string | number | null;
}

/** A judge made of rule checks: the answer passes when every check passes. */
export interface RuleJudge {
  kind: 'rule';
  checks: RuleCheck[];
}

export interface TaskRecord {
  /** Stable across nights: the same request in the same project has the same id. */
  id: string;
  /** The project folder the task came from. */
  project: string;
  /** The request, as the developer asked it. */
  intent: string;
  /** More of the conversation, given with the request. */
  contextExcerpt: string;
  /** A system prompt used verbatim instead of the replay's own. */
  system: string;
  /** The last answer the session's agent gave. */
  attemptedSolution: string;
  outcome: TaskOutcome;
  referenceKind: ReferenceKind;
  /** The exact answer or the rubric text; '' for rule and none. */
  reference: string;
  /** The rule checks, when `referenceKind` is `rule`. */
  judge?: RuleJudge;
  tags: string[];
  /** The sessions it was mined from. */
  sourceSessions: string[];
  split: TaskSplit;
  origin: TaskOrigin;
  /** The task a dream or recalled copy was made from; '' otherwise. */
  derivedFrom: string;
  /** The one skill the source sessions used, when they used exactly one; ''. */
  skillHint: string;
}
