import type { GatedCandidateKind, TaskItem } from '@skillopt/contract';
import { summarizeScores } from '../evaluation/score-summary.js';
import type { RunEventInput } from '../events/run-event-input.js';
import type { SelectionScores } from '../run-store/runtime-state.js';
import { skillHash } from '../skill-hash.js';
import type { GateDecision, GateRules } from './gate-decision.js';
import type { GateItemResult } from './gate-item-result.js';
import { runPairedGate, type PairedGateSettings } from './paired-gate.js';
import { selectionScores } from './selection-scores.js';
import { runStrictGate, type StrictEarlyStopSettings } from './early-strict-gate.js';

/** Which strategy decides, with its own settings. A new strategy is a new member. */
export type GateSettings =
  /** `earlyStop`: stop evaluating a candidate once the strict decision cannot change (a rejection); absent: evaluate every item. */
  { strategy: 'strict'; earlyStop?: StrictEarlyStopSettings | undefined } | { strategy: 'paired'; paired: PairedGateSettings };

/** Rolls a skill out on items: one result per item, in any order. */
export type GateEvaluator = (skill: string, items: readonly TaskItem[]) => Promise<readonly GateItemResult[]>;

/** The events a gate reports: what the candidate scored, then what was decided. */
export type GateEvent = Extract<RunEventInput, { type: 'candidate-evaluated' | 'gate-decided' }>;

/** Everything a gate needs, and nothing of a training run. */
export interface CandidateGateOptions {
  evaluate: GateEvaluator;
  /** The held-out items candidates are judged on. */
  selectionItems: readonly TaskItem[];
  rules: GateRules;
  settings: GateSettings;
  signal: AbortSignal;
  emit: (event: GateEvent) => void;
}

export interface CandidateGateRequest {
  incumbentSkill: string;
  candidateSkill: string;
  /** Where the candidate comes from, as the events report it. */
  position: { epoch: number; step: number; globalStep: number };
  /** A training step's candidate, or the epoch-end slow update's. */
  stage: GatedCandidateKind;
}

export interface CandidateGateResult {
  /** The verdict and its evidence; a strategy adds its own (the paired gate's `sequential`). */
  decision: GateDecision;
  /** The candidate's scores: on every selection item when accepted, else on the items it was evaluated on. */
  candidateScores: SelectionScores;
}

/** The validation gate as its callers see it: whatever strategy decides, this is all there is. */
export interface CandidateGate {
  /** Whether the candidate replaces the incumbent; emits `candidate-evaluated`, then `gate-decided`. */
  judge(request: CandidateGateRequest): Promise<CandidateGateResult>;
}

/**
 * The gate over an evaluator. The incumbent is evaluated like the candidate; a caching evaluator
 * (the trainer's) answers it from the rollouts it was accepted on, so only the candidate costs
 * rollouts. The paired strategy spends them chunk by chunk and stops as soon as the answer is clear;
 * the strict one, with `earlyStop`, stops a candidate as soon as its rejection is certain.
 */
export function createCandidateGate(options: CandidateGateOptions): CandidateGate {
  const { evaluate, selectionItems, rules, settings, signal, emit } = options;
  return {
    async judge({ incumbentSkill, candidateSkill, position, stage }) {
      let decision: GateDecision;
      let candidateScores: SelectionScores;
      if (settings.strategy === 'paired') {
        const candidateItems: GateItemResult[] = [];
        decision = await runPairedGate({
          items: selectionItems,
          candidateSkill,
          incumbentSkill,
          rules,
          settings: settings.paired,
          signal,
          evaluateCandidate: async (items) => {
            const results = await evaluate(candidateSkill, items);
            candidateItems.push(...results);
            return results;
          },
          incumbentResults: (items) => evaluate(incumbentSkill, items),
        });
        // An early accept saw part of the split; the best skill is chosen on whole-split scores, so an
        // accepted candidate is scored on every item (the next gate needs those results anyway).
        const scoredOn = decision.accepted ? await evaluate(candidateSkill, selectionItems) : candidateItems;
        candidateScores = selectionScores(candidateSkill, summarizeScores(scoredOn), rules);
      } else {
        // The incumbent first (the cache has it), so the candidate's items can be ordered and bounded.
        const incumbent = await evaluate(incumbentSkill, selectionItems);
        const strict = await runStrictGate({
          items: selectionItems,
          candidateSkill,
          incumbentSkill,
          rules,
          earlyStop: settings.earlyStop,
          incumbentResults: incumbent,
          evaluateCandidate: (items) => evaluate(candidateSkill, items),
          signal,
        });
        decision = strict.decision;
        // Accepted: every item. Rejected early: the items evaluated, so the score is partial.
        candidateScores = selectionScores(candidateSkill, summarizeScores(strict.candidateResults), rules);
      }
      // Named one by one: the events are strict, and a caller's position may carry more.
      const { epoch, step, globalStep } = position;
      emit({
        type: 'candidate-evaluated',
        epoch,
        step,
        globalStep,
        stage,
        candidateHash: skillHash(candidateSkill),
        candidateScore: decision.candidateScore,
        incumbentScore: decision.incumbentScore,
        itemsEvaluated: decision.itemsEvaluated,
      });
      emit({
        type: 'gate-decided',
        epoch,
        step,
        globalStep,
        stage,
        accepted: decision.accepted,
        strategy: decision.strategy,
        reason: decision.reason,
        candidateScore: decision.candidateScore,
        incumbentScore: decision.incumbentScore,
      });
      return { decision, candidateScores };
    },
  };
}
