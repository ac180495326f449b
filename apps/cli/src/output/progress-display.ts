import type { RunEvent, SplitName } from '@skillopt/contract';
import { splitOfRolloutPhase } from '@skillopt/core';
import { type Colours, NO_COLOURS } from './colours.js';
import { formatDuration, formatPerSplit, formatScore, formatUsd } from './format.js';
import { createRunPace } from './run-pace.js';
import { cutToWidth } from './terminal-width.js';
import { jsonLine } from './json-lines.js';

export type ProgressMode = 'terminal' | 'lines' | 'json';

export interface ProgressOutput {
  write(text: string): void;
}

export interface ProgressDisplayOptions {
  /** Styles for the lines and the status line (default: none). */
  colours?: Colours;
  /** The terminal's width now, read at every redraw (a terminal may be resized); undefined: not cut. */
  columns?: () => number | undefined;
  /** The clock elapsed time and the time left are measured with (default: Date.now). */
  now?: () => number;
  /** How often a terminal's status line is redrawn between events, so the time on it moves (default 1 s; 0: only on events). */
  redrawEveryMs?: number;
}

type SplitCounts = Record<SplitName, number>;
const noSplits = (): SplitCounts => ({ train: 0, val: 0, test: 0 });

/**
 * Shows a run's events: on a terminal a status line redrawn in place (epoch, step, elapsed time and
 * the time left, rollouts, incumbent vs candidate, accepted and rejected, calls and cost), cut to
 * the terminal's width (with a distributed run's jobs, queued and per worker running and done), with the gate decisions and the steps that proposed no edit printed above
 * it; without a terminal plain lines, which also tell the items excluded, per split and by cause;
 * with --json each event as one JSON line and nothing else.
 */
export function createProgressDisplay(
  mode: ProgressMode,
  output: ProgressOutput,
  options: ProgressDisplayOptions = {},
): { onEvent(event: RunEvent): void; finish(): void } {
  const colours = options.colours ?? NO_COLOURS;
  const now = options.now ?? Date.now;
  const pace = createRunPace();
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
    excluded: noSplits(),
    /** A distributed run's jobs, as last counted: empty for a run in process. */
    jobs: '',
  };
  // Exclusions since the last line that told them: per split, and how many of each cause.
  let pendingExclusions = { splits: noSplits(), causes: new Map<string, number>() };
  // Whether the current step's outcome has a line yet (a gate decision, no edits), and whether a stage of it failed.
  const step = { outcomeTold: false, stageFailed: false };

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
    const time = now();
    const elapsed = pace.elapsedMs(time);
    const remaining = pace.remainingMs(time);
    const timing =
      elapsed === undefined ? '' : colours.dim(` | ${formatDuration(elapsed)}${remaining === undefined ? '' : `, about ${formatDuration(remaining)} left`}`);
    const rollouts = status.rolloutsTotal > 0 ? ` | ${status.phase} ${status.rolloutsDone}/${status.rolloutsTotal}` : '';
    const excluded = formatPerSplit(status.excluded);
    const text =
      `epoch ${status.epoch}/${status.epochs} step ${status.globalStep}/${status.totalSteps}${timing}${rollouts}` +
      ` | best ${formatScore(status.incumbent)} cand ${formatScore(status.candidate)}` +
      ` | ${colours.green(`✓${status.accepted}`)} ${colours.red(`✗${status.rejected}`)} | ${status.calls} calls ${formatUsd(status.costUsd, status.unpriced)}` +
      (excluded === '' ? '' : ` | ${colours.yellow(`excluded ${excluded}`)}`) +
      (status.jobs === '' ? '' : ` | ${status.jobs}`);
    output.write(`\r\u001b[2K${cutToWidth(text, options.columns?.())}`);
    statusShown = true;
  };
  /** In line mode, the exclusions since the last such line, told as of `where`: "step 3: excluded 1 train, 2 val (provider-timeout: 3)". */
  const tellExclusions = (where: string) => {
    const { splits, causes } = pendingExclusions;
    pendingExclusions = { splits: noSplits(), causes: new Map() };
    if (mode !== 'lines' || causes.size === 0) return;
    const byCause = causes.size === 1 ? [...causes.keys()] : [...causes].map(([cause, count]) => `${cause}: ${count}`);
    line(colours.yellow(`  ${where}: excluded ${formatPerSplit(splits)} (${byCause.join(', ')})`));
  };
  const redrawEveryMs = options.redrawEveryMs ?? 1000;
  // Redrawn only while shown: before the first event there is nothing to show.
  const redraw = mode === 'terminal' && redrawEveryMs > 0 ? setInterval(() => statusShown && drawStatus(), redrawEveryMs) : undefined;
  redraw?.unref();

  return {
    onEvent(event) {
      if (mode === 'json') {
        output.write(jsonLine(event));
        return;
      }
      pace.observe(event);
      switch (event.type) {
        case 'run-started':
          status.epochs = event.epochs;
          status.totalSteps = event.epochs * event.stepsPerEpoch;
          line(`${event.resumed ? 'Resuming' : 'Training'} on ${event.environmentId}: target ${event.targetModel}, optimizer ${event.optimizerModel}`);
          line(
            `Splits: ${event.splitSizes.train} train, ${event.splitSizes.val} validation, ${event.splitSizes.test} test; ${event.epochs} epochs of ${event.stepsPerEpoch} steps`,
          );
          line(colours.dim(`Run directory: ${event.runDirectory}`));
          break;
        case 'epoch-started':
          status.epoch = event.epoch;
          if (mode === 'lines') line(`Epoch ${event.epoch}/${status.epochs}`);
          break;
        case 'step-started':
          status.epoch = event.epoch;
          status.globalStep = event.globalStep;
          status.candidate = null;
          step.outcomeTold = false;
          step.stageFailed = false;
          if (mode === 'lines') line(`  step ${event.globalStep}/${status.totalSteps}: ${event.itemIds.length} items`);
          break;
        case 'item-rolled-out':
          status.phase = event.phase;
          status.rolloutsDone = event.completed;
          status.rolloutsTotal = event.total;
          if (event.errorCode !== undefined) {
            const split = splitOfRolloutPhase(event.phase);
            status.excluded[split] += 1;
            pendingExclusions.splits[split] += 1;
            pendingExclusions.causes.set(event.errorCode, (pendingExclusions.causes.get(event.errorCode) ?? 0) + 1);
          }
          if (event.phase === 'baseline' && event.completed === event.total && mode === 'lines') line(`  baseline: ${event.total} validation items rolled out`);
          break;
        case 'edits-proposed':
          // The analysts proposing nothing, or a learning rate of 0 keeping nothing, ends the step without a candidate.
          if (event.count > 0 || (event.stage !== 'reflect' && event.stage !== 'rank')) break;
          step.outcomeTold = true;
          line(colours.dim(`  step ${event.globalStep}: ${event.stage === 'reflect' ? 'no edits proposed' : 'no edits selected (learning rate 0)'}`));
          break;
        case 'candidate-evaluated':
          status.incumbent = event.incumbentScore;
          status.candidate = event.candidateScore;
          break;
        case 'gate-decided': {
          if (event.accepted) status.accepted += 1;
          else status.rejected += 1;
          if (event.stage !== 'slow-update') step.outcomeTold = true;
          const decision = event.accepted ? colours.green('accepted') : colours.red('rejected');
          line(
            `  step ${event.globalStep}: ${decision} (${formatScore(event.candidateScore)} vs ${formatScore(event.incumbentScore)}) ${colours.dim(event.reason)}`,
          );
          break;
        }
        case 'edit-refused':
          line(colours.dim(`  step ${event.globalStep}: the agent's change to "${event.excerpt}" was refused: ${event.reason}`));
          break;
        case 'stage-failed':
          if (event.globalStep === status.globalStep) step.stageFailed = true;
          line(colours.red(`  ${event.globalStep ? `step ${event.globalStep}: ` : ''}stage ${event.stage} failed: ${event.reason}`));
          break;
        case 'step-finished':
          status.incumbent = event.bestScore;
          // A candidate identical to the incumbent is not gated; nor is there one after a stage failed.
          if (!step.outcomeTold)
            line(
              colours.dim(
                `  step ${event.globalStep}: no candidate to gate (${step.stageFailed ? 'a stage failed' : 'the selected edits left the skill unchanged'})`,
              ),
            );
          step.outcomeTold = true;
          tellExclusions(`step ${event.globalStep}`);
          break;
        case 'epoch-finished': {
          tellExclusions(`end of epoch ${event.epoch}`);
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
        case 'rollout-jobs-counted':
          status.jobs = [
            `jobs ${event.queued} queued`,
            ...event.workers.map((worker) => `${worker.worker} ${worker.running} running ${worker.done} done`),
          ].join(', ');
          break;
        case 'run-finished':
          tellExclusions('final test');
          break;
        case 'run-stopped':
          tellExclusions('before the stop');
          // Requests left for the user's own agent are a pause, not a failure.
          line(
            event.reason === 'answer-pending'
              ? colours.yellow(`Waiting for answers: ${event.message}`)
              : colours.red(`Stopped (${event.reason}): ${event.message}`),
          );
          line(`Resume with: ${colours.bold(event.resumeCommand)}`);
          break;
        default:
          break;
      }
      drawStatus();
    },
    finish() {
      if (redraw !== undefined) clearInterval(redraw);
      if (mode === 'terminal') clearStatus();
    },
  };
}
