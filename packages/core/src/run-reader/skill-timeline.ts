import path from 'node:path';
import { z } from 'zod';
import { readJsonFileIfExists } from '../run-store/read-json-file.js';
import { RUN_FILES, skillVersionPath } from '../run-store/run-directory-layout.js';
import type { StepRecord } from '../run-store/step-record.js';
import { skillHash } from '../skill-hash.js';
import { readRunSkill, readStepArtifact, type RunStateView } from './run-reader.js';

/**
 * The versions a run's current skill went through, in order: the initial skill, each step whose
 * candidate the gate accepted (skills/skill_vNNNN.md), and each accepted epoch-end slow update
 * (skills/skill_epoch_EE_slow_update.md), which takes effect after the last step of its epoch.
 */
export interface SkillVersion {
  kind: 'initial' | 'step' | 'epoch-end';
  /** The global step it belongs to: the accepted step, or the last step of the epoch that ended. */
  step: number;
  epoch: number;
  /** Orders versions: 2 × step for a step's version, 2 × step + 1 for an epoch end after it. */
  order: number;
  label: string;
  file: string;
  text: string;
  hash: string;
  /** What let it in: the gate decision (gate_decision.json, else the step record's gate). */
  gate: GateSummary | undefined;
}

export interface GateSummary {
  strategy: string | undefined;
  accepted: boolean | undefined;
  reason: string | undefined;
  candidateScore: number | undefined;
  incumbentScore: number | undefined;
  itemsEvaluated: number | undefined;
  itemsTotal: number | undefined;
  improvedItems: number | undefined;
  regressedItems: number | undefined;
}

const gateFileSchema = z.record(z.string(), z.unknown());

/** The run's skill versions, oldest first. Versions whose file is missing are left out. */
export async function readSkillTimeline(directory: string, history: readonly StepRecord[], state: RunStateView): Promise<SkillVersion[]> {
  const versions: SkillVersion[] = [];
  const initial = await readVersion(directory, skillVersionPath(0));
  if (initial !== undefined)
    versions.push({ kind: 'initial', step: 0, epoch: 0, order: 0, label: 'the initial skill', file: skillVersionPath(0), ...initial, gate: undefined });

  const epochEnd = async (epoch: number, afterStep: number) => {
    const file = `${RUN_FILES.skillsDirectory}/skill_epoch_${String(epoch).padStart(2, '0')}_slow_update.md`;
    const version = await readVersion(directory, file);
    if (version === undefined) return;
    const decision = await readJsonFileIfExists(
      path.join(directory, 'slow_update', `epoch_${String(epoch).padStart(2, '0')}`, 'gate_decision.json'),
      gateFileSchema,
    );
    versions.push({
      kind: 'epoch-end',
      step: afterStep,
      epoch,
      order: afterStep * 2 + 1,
      label: `the slow update at the end of epoch ${epoch}`,
      file,
      ...version,
      gate: decision ? gateSummaryOf(decision) : undefined,
    });
  };

  let previous: StepRecord | undefined;
  for (const record of history) {
    if (previous !== undefined && record.epoch !== previous.epoch) await epochEnd(previous.epoch, previous.step);
    if (record.outcome === 'accepted') {
      const file = skillVersionPath(record.step);
      const version = await readVersion(directory, file);
      if (version !== undefined) {
        const decision = (await readStepArtifact(directory, record.step, 'gate_decision.json')) ?? record.gate;
        versions.push({
          kind: 'step',
          step: record.step,
          epoch: record.epoch,
          order: record.step * 2,
          label: `step ${record.step} (epoch ${record.epoch})`,
          file,
          ...version,
          gate: decision ? gateSummaryOf(decision) : undefined,
        });
      }
    }
    previous = record;
  }
  // The last epoch's end, once it was committed.
  if (previous !== undefined && state.completedEpochEndStages.some((marker) => marker.epoch === previous?.epoch && marker.stage === 'slow-update'))
    await epochEnd(previous.epoch, previous.step);
  return versions;
}

async function readVersion(directory: string, file: string): Promise<{ text: string; hash: string } | undefined> {
  const text = await readRunSkill(directory, file);
  return text === undefined ? undefined : { text, hash: skillHash(text) };
}

function gateSummaryOf(decision: Record<string, unknown>): GateSummary {
  const text = (key: string) => (typeof decision[key] === 'string' ? (decision[key] as string) : undefined);
  const number = (key: string) => (typeof decision[key] === 'number' ? (decision[key] as number) : undefined);
  const deltas = Array.isArray(decision.itemDeltas) ? (decision.itemDeltas as Array<{ change?: unknown }>) : undefined;
  return {
    strategy: text('strategy'),
    accepted: typeof decision.accepted === 'boolean' ? decision.accepted : undefined,
    reason: text('reason'),
    candidateScore: number('candidateScore'),
    incumbentScore: number('incumbentScore'),
    itemsEvaluated: number('itemsEvaluated'),
    itemsTotal: number('itemsTotal'),
    improvedItems: deltas?.filter((delta) => delta.change === 'improved').length,
    regressedItems: deltas?.filter((delta) => delta.change === 'regressed').length,
  };
}
