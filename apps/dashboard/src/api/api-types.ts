// The API's bodies are the run reader's types: imported as types only, so nothing of core (which
// reads files with Node) reaches the page's bundle.
import type { RunListEntry, UnreadableRunListEntry } from '@skillopt/core';

export type {
  ExcludedRollout,
  ProposalReport,
  RunListEntry,
  RunReport,
  SkillDiff,
  SkillVersionSummary,
  StageFailureReport,
  StepGateReport,
  StepPoint,
  StepReport,
  UnreadableRunListEntry,
} from '@skillopt/core';
export type { Edit, RunEvent } from '@skillopt/contract';

/** `GET /api/runs`. */
export interface RunsResponse {
  folder: string;
  runs: Array<RunListEntry | UnreadableRunListEntry>;
}
