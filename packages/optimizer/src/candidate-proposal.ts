import { addUsage, EMPTY_USAGE, type ChatModel, type Edit, type ScoredRollout, type Usage } from '@skillopt/contract';
import { proposeEditsByAgent, type AgentEditRecord, type AgentOptimizerRun } from './agent-edit.js';
import { aggregateEdits } from './aggregation.js';
import type { EditApplicationReport } from './edit-engine.js';
import { chooseLearningRate } from './learning-rate-decision.js';
import type { LearningRateScheduleSettings } from './learning-rate-schedule.js';
import { aggregationWaves } from './merge-waves.js';
import type { PromptContext } from './prompt-sections.js';
import { addAppendixNotes, consolidateAppendix } from './reflection-appendix.js';
import { reflect, type AnalystKind, type AppendixNoteSources, type ReflectionResult } from './reflection.js';
import { selectEdits } from './selection.js';
import { updateSkill, type SkillUpdateMode, type SkillUpdateOptions } from './skill-update.js';
import type { RefusedChange } from './skill-revision.js';
import type { StageFailure } from './stage-result.js';

/** How one step turns trajectories into a candidate: the optimizer's settings, in its own terms. */
export interface CandidateProposalSettings {
  updateMode: SkillUpdateMode;
  /** The schedule and its bounds; the maximum also caps the edits kept from each analyst. */
  learningRate: LearningRateScheduleSettings;
  /** False lifts the learning rate's limit: every merged edit may be applied (`lr_control_mode: none`). */
  learningRateLimitsEdits: boolean;
  /** The most trajectories one analyst reads. */
  minibatchSize: number;
  /** Reflect on failed trajectories only. */
  failureOnly: boolean;
  /** Patches one merge call combines; at least 2. */
  mergeBatchSize: number;
  /** Analyst and merge calls in flight at once. */
  concurrency: number;
  /** Skill-aware reflection: which analysts write appendix notes, and above how many notes the appendix is consolidated (0: never). Absent: off. */
  appendix?: { noteSources: Exclude<AppendixNoteSources, 'none'>; consolidateThreshold: number };
}

export interface CandidateProposalOptions extends PromptContext {
  /** The optimizer model. */
  model: ChatModel;
  signal: AbortSignal;
  /** The incumbent skill the edits apply to. */
  skill: string;
  /** The step's scored trajectories: the proposal reflects on them and never rolls anything out. */
  results: readonly ScoredRollout[];
  settings: CandidateProposalSettings;
  /** 1-based, counted across epochs: where the learning-rate schedule stands. */
  globalStep: number;
  /**
   * An agent as the optimizer: its harness edits a copy of the skill (the `optimize` stage) in
   * place of reflect and merge; `model` still ranks, decides an autonomous learning rate and
   * rewrites. Absent: the chat optimizer.
   */
  agent?: AgentOptimizerRun;
  /** Told of each stage's edit count and of each stage failure, as they happen. */
  onProgress?: (progress: CandidateProposalProgress) => void;
}

/**
 * What a proposal reports while it runs. `edits-proposed` comes once per stage that produced edits
 * (reflect, merge, and rank for the selected ones). `stage-failed` comes for every unusable reply:
 * an analyst's or the appendix consolidation's, which the proposal survives, and the one that ends
 * it with a `stage-failed` outcome.
 */
export type CandidateProposalProgress =
  | { type: 'edits-proposed'; stage: 'reflect' | 'merge' | 'rank' | 'optimize'; count: number }
  | { type: 'stage-failed'; failure: StageFailure }
  /** A change the agent optimizer made that no edit carries (it touched a protected region, say). */
  | { type: 'edit-refused'; refused: RefusedChange };

/** Edits counted at each stage that ran; a stage that did not run has no count. */
export interface EditCounts {
  proposed?: number;
  merged?: number;
  selected?: number;
}

/** The selection as the step keeps it (ranked_edits.json). */
export interface RankedEdits {
  learningRate: number;
  /** True when the optimizer ranked the edits; false when every edit fitted. */
  ranked: boolean;
  reasoning: string;
  edits: Edit[];
}

/** The evidence worth keeping with the step; each is absent when its stage did not run. */
export interface CandidateProposalArtifacts {
  reflection?: ReflectionResult;
  rankedEdits?: RankedEdits;
  /** Patch mode: what happened to each selected edit. */
  editApplyReports?: EditApplicationReport[];
  /** With an agent as the optimizer: its run, its copy of the skill and the edits read from it. */
  agentEdit?: AgentEditRecord;
}

/** What every outcome reports: how far the proposal got and what it cost. */
export interface ProposalAccounting {
  editCounts: EditCounts;
  /** The most edits this step could apply; absent when the proposal stopped before choosing it, or rewrote the skill from the trajectories. */
  learningRate?: number;
  /** Optimizer calls made, re-asks included. */
  optimizerCalls: number;
  optimizerUsage: Usage;
  /** Optimizer replies read only after their JSON was repaired (a truncation cut back, or syntax slips fixed) instead of re-asked. */
  repairedReplies: number;
  /** The calls counted in waves of calls that ran at the same time: the proposal's share of a run's critical path. */
  sequentialWaves: number;
  artifacts: CandidateProposalArtifacts;
}

/** A candidate skill that differs from the incumbent: the gate's to judge. */
export interface ProposedCandidate extends ProposalAccounting {
  outcome: 'candidate';
  skill: string;
  /** The edits the candidate was made from, most important first (none for a rewrite from the trajectories). */
  selectedEdits: Edit[];
  /** The analysts' appendix notes offered to the candidate (with skill-aware reflection). */
  appendixNotes: string[];
}

/** No analyst proposed an edit. */
export interface NoEditsProposed extends ProposalAccounting {
  outcome: 'no-edits-proposed';
}

/** The step's learning rate was 0, so selection kept no edit. */
export interface LearningRateZero extends ProposalAccounting {
  outcome: 'learning-rate-zero';
  learningRate: number;
}

/** The update produced the incumbent's text again: there is nothing to gate. */
export interface UnchangedSkill extends ProposalAccounting {
  outcome: 'unchanged';
  skill: string;
}

/** A stage's reply could not be used, even after a re-ask. */
export interface FailedStage extends ProposalAccounting {
  outcome: 'stage-failed';
  failure: StageFailure;
}

export type NoCandidate = NoEditsProposed | LearningRateZero | UnchangedSkill | FailedStage;
export type CandidateProposal = ProposedCandidate | NoCandidate;

/** The stages before the update: the edits to apply, or the reason there are none. */
type EditProposal = { outcome: 'edits'; selectedEdits: Edit[]; appendixNotes: string[] } | NoCandidate;

/**
 * One step of the optimizer over trajectories it is handed: reflect, merge, choose the learning
 * rate, select at most that many edits, update the skill, and (with skill-aware reflection) add the
 * appendix notes to the candidate, where the gate judges them with the edits. A full rewrite goes
 * from the trajectories straight to the update. A reply that cannot be used ends the proposal with
 * a `stage-failed` outcome; provider errors and aborts are thrown.
 */
export async function proposeCandidate(options: CandidateProposalOptions): Promise<CandidateProposal> {
  const proposal = new ProposalInProgress(options);
  if (options.agent !== undefined) {
    const edits = await proposeEditsWithAgent(options, options.agent, proposal);
    if (edits.outcome !== 'edits') return edits;
    // The agent's copy is the rewrite: its edits (all of them, or those selected) are applied as a patch.
    return updateToCandidate(options, proposal, edits.selectedEdits, edits.appendixNotes, updateModeWithAgent(options.settings.updateMode));
  }
  const edits: EditProposal =
    options.settings.updateMode === 'full_rewrite_minibatch'
      ? { outcome: 'edits', selectedEdits: [], appendixNotes: [] }
      : await proposeEdits(options, proposal);
  if (edits.outcome !== 'edits') return edits;
  return updateToCandidate(options, proposal, edits.selectedEdits, edits.appendixNotes, options.settings.updateMode);
}

function updateModeWithAgent(mode: SkillUpdateMode): SkillUpdateMode {
  return mode === 'full_rewrite_minibatch' ? 'patch' : mode;
}

/** The running totals, edit counts and artifacts of one proposal, and how each outcome is reported. */
class ProposalInProgress {
  readonly editCounts: EditCounts = {};
  readonly artifacts: CandidateProposalArtifacts = {};
  learningRate: number | undefined;
  private optimizerCalls = 0;
  private optimizerUsage: Usage = EMPTY_USAGE;
  private repairedReplies = 0;
  private sequentialWaves = 0;

  constructor(private readonly options: CandidateProposalOptions) {}

  /** Adds a stage's calls; a stage that made any adds its depth in waves (1 unless it is a merge tree). */
  count(stage: { attempts: number; usage: Usage; repairedReplies?: number }, waves = 1): void {
    this.optimizerUsage = addUsage(this.optimizerUsage, stage.usage);
    this.optimizerCalls += stage.attempts;
    this.repairedReplies += stage.repairedReplies ?? 0;
    if (stage.attempts > 0) this.sequentialWaves += waves;
  }

  report(progress: CandidateProposalProgress): void {
    this.options.onProgress?.(progress);
  }

  accounting(): ProposalAccounting {
    return {
      editCounts: { ...this.editCounts },
      ...(this.learningRate === undefined ? {} : { learningRate: this.learningRate }),
      optimizerCalls: this.optimizerCalls,
      optimizerUsage: this.optimizerUsage,
      repairedReplies: this.repairedReplies,
      sequentialWaves: this.sequentialWaves,
      artifacts: { ...this.artifacts },
    };
  }

  failed(failure: StageFailure): FailedStage {
    this.report({ type: 'stage-failed', failure });
    return { ...this.accounting(), outcome: 'stage-failed', failure };
  }
}

async function proposeEdits(options: CandidateProposalOptions, proposal: ProposalInProgress): Promise<EditProposal> {
  const { model, signal, skill, results, settings } = options;
  const promptContext = promptContextOf(options);

  const reflection = await reflect({
    model,
    signal,
    skill,
    results,
    minibatchSize: settings.minibatchSize,
    maxEditsPerAnalyst: settings.learningRate.maxLearningRate,
    failureOnly: settings.failureOnly,
    concurrency: settings.concurrency,
    ...(settings.appendix ? { appendixNoteSources: settings.appendix.noteSources } : {}),
    ...promptContext,
  });
  proposal.count({ attempts: reflection.calls, usage: reflection.usage, repairedReplies: reflection.repairedReplies });
  for (const failure of reflection.failures) proposal.report({ type: 'stage-failed', failure });
  proposal.artifacts.reflection = reflection;
  const patches = reflection.reports.map((report) => ({ kind: report.kind, edits: report.edits }));
  const proposed = patches.reduce((total, patch) => total + patch.edits.length, 0);
  proposal.editCounts.proposed = proposed;
  proposal.report({ type: 'edits-proposed', stage: 'reflect', count: proposed });
  if (proposed === 0) return { ...proposal.accounting(), outcome: 'no-edits-proposed' };

  const aggregation = await aggregateEdits({
    model,
    signal,
    skill,
    patches,
    mergeBatchSize: settings.mergeBatchSize,
    concurrency: settings.concurrency,
    ...promptContext,
  });
  const patchesOf = (kind: AnalystKind) => patches.filter((patch) => patch.kind === kind && patch.edits.length > 0).length;
  proposal.count(aggregation, aggregationWaves(patchesOf('failure'), patchesOf('success'), settings.mergeBatchSize));
  if (!aggregation.ok) return proposal.failed(aggregation);
  const merged = aggregation.value.edits;
  proposal.editCounts.merged = merged.length;
  proposal.report({ type: 'edits-proposed', stage: 'merge', count: merged.length });

  const selection = await selectWithinLearningRate(options, proposal, merged);
  if (selection.outcome !== 'edits') return selection;
  return { outcome: 'edits', selectedEdits: selection.selectedEdits, appendixNotes: reflection.reports.flatMap((report) => report.appendixNotes) };
}

/**
 * The learning rate (the schedule's, or the model's when autonomous) and the selection of at most
 * that many of `edits`, ranked by the model when they do not all fit.
 */
async function selectWithinLearningRate(
  options: CandidateProposalOptions,
  proposal: ProposalInProgress,
  edits: Edit[],
): Promise<{ outcome: 'edits'; selectedEdits: Edit[] } | NoCandidate> {
  const { model, signal, skill, results, settings, globalStep } = options;
  const promptContext = promptContextOf(options);
  const decision = await chooseLearningRate({
    model,
    signal,
    skill,
    edits,
    settings: settings.learningRate,
    globalStep,
    evidence: { rolloutCount: results.length, meanHard: mean(results.map((result) => result.hard)), meanSoft: mean(results.map((result) => result.soft)) },
    ...promptContext,
  });
  proposal.count(decision);
  if (!decision.ok) return proposal.failed(decision);
  const learningRate = settings.learningRateLimitsEdits ? decision.value.learningRate : edits.length;
  proposal.learningRate = learningRate;

  const selection = await selectEdits({ model, signal, skill, edits, learningRate, ...promptContext });
  proposal.count(selection);
  if (!selection.ok) return proposal.failed(selection);
  const selectedEdits = selection.value.edits;
  proposal.artifacts.rankedEdits = { learningRate, ranked: selection.value.ranked, reasoning: selection.value.reasoning, edits: selectedEdits };
  proposal.editCounts.selected = selectedEdits.length;
  proposal.report({ type: 'edits-proposed', stage: 'rank', count: selectedEdits.length });
  // Merging never returns an empty list, so selection keeps nothing only under a learning rate of 0.
  if (selectedEdits.length === 0) return { ...proposal.accounting(), outcome: 'learning-rate-zero', learningRate };
  return { outcome: 'edits', selectedEdits };
}

/**
 * The agent's edits in place of reflect and merge, then the same learning rate and selection (a
 * full rewrite keeps every edit). The kept edits are put in the order of the agent's copy from the
 * end backwards, so that two added blocks at one place land in the order the agent wrote them.
 */
async function proposeEditsWithAgent(options: CandidateProposalOptions, agent: AgentOptimizerRun, proposal: ProposalInProgress): Promise<EditProposal> {
  const { settings } = options;
  const agentEdits = await proposeEditsByAgent({
    agent,
    signal: options.signal,
    skill: options.skill,
    results: options.results,
    maxEdits: settings.learningRate.maxLearningRate,
    failureOnly: settings.failureOnly,
    ...promptContextOf(options),
  });
  proposal.count(agentEdits);
  const record = agentEdits.ok ? agentEdits.value.record : agentEdits.record;
  if (record !== undefined) {
    proposal.artifacts.agentEdit = record;
    for (const refused of record.refused) proposal.report({ type: 'edit-refused', refused });
  }
  if (!agentEdits.ok) return proposal.failed(agentEdits);
  const { edits, positions } = agentEdits.value;
  proposal.editCounts.proposed = edits.length;
  proposal.report({ type: 'edits-proposed', stage: 'optimize', count: edits.length });
  if (settings.updateMode === 'full_rewrite_minibatch') {
    proposal.editCounts.selected = edits.length;
    return { outcome: 'edits', selectedEdits: inRevisionOrderFromTheEnd(edits, edits, positions), appendixNotes: [] };
  }
  const selection = await selectWithinLearningRate(options, proposal, edits);
  if (selection.outcome !== 'edits') return selection;
  return { outcome: 'edits', selectedEdits: inRevisionOrderFromTheEnd(selection.selectedEdits, edits, positions), appendixNotes: [] };
}

function inRevisionOrderFromTheEnd(selected: readonly Edit[], all: readonly Edit[], positions: readonly number[]): Edit[] {
  const positionOf = (edit: Edit) => positions[all.indexOf(edit)] ?? 0;
  return [...selected].sort((left, right) => positionOf(right) - positionOf(left));
}

async function updateToCandidate(
  options: CandidateProposalOptions,
  proposal: ProposalInProgress,
  selectedEdits: Edit[],
  appendixNotes: string[],
  updateMode: SkillUpdateMode,
): Promise<CandidateProposal> {
  const { model, signal, skill, results, settings } = options;
  const promptContext = promptContextOf(options);
  const updateOptions: SkillUpdateOptions =
    updateMode === 'patch'
      ? { mode: 'patch', skill, edits: selectedEdits }
      : updateMode === 'rewrite_from_suggestions'
        ? { mode: 'rewrite_from_suggestions', model, signal, skill, edits: selectedEdits, ...promptContext }
        : { mode: 'full_rewrite_minibatch', model, signal, skill, results, ...promptContext };
  const update = await updateSkill(updateOptions);
  proposal.count(update);
  if (!update.ok) return proposal.failed(update);
  let candidate = update.value.skill;
  if (settings.appendix) {
    // Appendix notes go into the candidate, so the gate judges them with the edits: the original
    // let them bypass the gate, even from rejected steps.
    candidate = addAppendixNotes(candidate, appendixNotes).skill;
    const consolidation = await consolidateAppendix({ model, signal, skill: candidate, threshold: settings.appendix.consolidateThreshold });
    proposal.count(consolidation);
    if (!consolidation.ok) proposal.report({ type: 'stage-failed', failure: consolidation });
    else candidate = consolidation.value.skill;
  }
  if (update.value.reports) proposal.artifacts.editApplyReports = update.value.reports;
  if (candidate === skill) return { ...proposal.accounting(), outcome: 'unchanged', skill: candidate };
  return { ...proposal.accounting(), outcome: 'candidate', skill: candidate, selectedEdits, appendixNotes };
}

function promptContextOf(options: CandidateProposalOptions): PromptContext {
  return { metaSkill: options.metaSkill, rejectedEdits: options.rejectedEdits };
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((total, value) => total + value, 0) / values.length;
}
