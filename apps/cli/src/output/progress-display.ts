import type { RunEvent, SplitName } from '@skillopt/contract';
import { splitOfRolloutPhase } from '@skillopt/core';
import { formatPerSplit, formatScore, formatUsd } from './format.js';
import { jsonLine } from './json-lines.js';

export type ProgressMode = 'terminal' | 'lines' | 'json';

export interface ProgressOutput {
  write(text: string): void;
}

/**
 * Shows a run's events: on a terminal a status line redrawn in place (epoch, step, rollouts,
 * incumbent vs candidate, accepted and rejected, calls and cost) with the gate decisions printed
 * above it; without a terminal plain lines; with --json each event as one JSON line and nothing else.
 */
export function createProgressDisplay(mode: ProgressMode, output: ProgressOutput): { onEvent(event: RunEvent): void; finish(): void } {
  const status = {
    epoch: 0,
    epochs: 0,
    globalStep: 0,
    totalSteps: 0,
    rolloutsDone: 0,
    rolloutsTotal: 0,
    phase: '',
    incumbent: null as number | null,
    candidate: null as number | null,
    accepted: 0,
    rejected: 0,
    calls: 0,
    costUsd: 0,
    unpriced: 0,
    excluded: { train: 0, val: 0, test: 0 } as Record<SplitName, number>,
  };
  let statusShown = false;
  const clearStatus = () => {
    if (statusShown) output.write('\r\u001b[2K');
    statusShown = false;
  };
  const line = (text: string) => {
    if (mode === 'terminal') clearStatus();
    output.write(`${text}\n`);
  };
  const drawStatus = () => {
    if (mode !== 'terminal') return;
    const rollouts = status.rolloutsTotal > 0 ? ` ${status.phase} ${status.rolloutsDone}/${status.rolloutsTotal}` : '';
    const excluded = formatPerSplit(status.excluded);
    output.write(
      `\r\u001b[2Kepoch ${status.epoch}/${status.epochs} step ${status.globalStep}/${status.totalSteps}${rollouts}` +
        ` | best ${formatScore(status.incumbent)} cand ${formatScore(status.candidate)}` +
        ` | ✓${status.accepted} ✗${status.rejected} | ${status.calls} calls ${formatUsd(status.costUsd, status.unpriced)}` +
        (excluded === '' ? '' : ` | excluded ${excluded}`),
    );
    statusShown = true;
  };

  return {
    onEvent(event) {
      if (mode === 'json') {
        output.write(jsonLine(event));
        return;
      }
      switch (event.type) {
        case 'run-started':
          status.epochs = event.epochs;
          status.totalSteps = event.epochs * event.stepsPerEpoch;
          line(`${event.resumed ? 'Resuming' : 'Training'} on ${event.environmentId}: target ${event.targetModel}, optimizer ${event.optimizerModel}`);
          line(
            `Splits: ${event.splitSizes.train} train, ${event.splitSizes.val} validation, ${event.splitSizes.test} test; ${event.epochs} epochs of ${event.stepsPerEpoch} steps`,
          );
          line(`Run directory: ${event.runDirectory}`);
          break;
        case 'epoch-started':
          status.epoch = event.epoch;
          if (mode === 'lines') line(`Epoch ${event.epoch}/${status.epochs}`);
          break;
        case 'step-started':
          status.epoch = event.epoch;
          status.globalStep = event.globalStep;
          status.candidate = null;
          if (mode === 'lines') line(`  step ${event.globalStep}/${status.totalSteps}: ${event.itemIds.length} items`);
          break;
        case 'item-rolled-out':
          status.phase = event.phase;
          status.rolloutsDone = event.completed;
          status.rolloutsTotal = event.total;
          if (event.errorCode !== undefined) status.excluded[splitOfRolloutPhase(event.phase)] += 1;
          if (event.phase === 'baseline' && event.completed === event.total && mode === 'lines') line(`  baseline: ${event.total} validation items rolled out`);
          break;
        case 'candidate-evaluated':
          status.incumbent = event.incumbentScore;
          status.candidate = event.candidateScore;
          break;
        case 'gate-decided':
          if (event.accepted) status.accepted += 1;
          else status.rejected += 1;
          line(
            `  step ${event.globalStep}: ${event.accepted ? 'accepted' : 'rejected'} (${formatScore(event.candidateScore)} vs ${formatScore(event.incumbentScore)}) ${event.reason}`,
          );
          break;
        case 'stage-failed':
          line(`  ${event.globalStep ? `step ${event.globalStep}: ` : ''}stage ${event.stage} failed: ${event.reason}`);
          break;
        case 'step-finished':
          status.incumbent = event.bestScore;
          if (mode === 'lines' && event.excludedItems > 0)
            line(`  step ${event.globalStep}: ${event.excludedItems} ${event.excludedItems === 1 ? 'item' : 'items'} excluded (infrastructure)`);
          break;
        case 'epoch-finished': {
          const excluded = formatPerSplit(status.excluded);
          line(
            `Epoch ${event.epoch} finished: best validation ${formatScore(event.bestScore)}${excluded === '' ? '' : `; excluded so far (infrastructure): ${excluded}`}`,
          );
          break;
        }
        case 'usage-recorded':
          status.calls += 1;
          if (event.costUsd === null) status.unpriced += 1;
          else status.costUsd += event.costUsd;
          break;
        case 'run-stopped':
          line(`Stopped (${event.reason}): ${event.message}`);
          line(`Resume with: ${event.resumeCommand}`);
          break;
        default:
          break;
      }
      drawStatus();
    },
    finish() {
      if (mode === 'terminal') clearStatus();
    },
  };
}
