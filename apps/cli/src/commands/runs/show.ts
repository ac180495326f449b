import path from 'node:path';
import { Args, Flags } from '@oclif/core';
import type { StepRecord } from '@skillopt/core';
import { SkillOptCommand } from '../../base-command.js';
import { coloursFor } from '../../output/colours.js';
import { formatScore, formatTable } from '../../output/format.js';
import { formatRunSummary } from '../../output/summary-table.js';
import { readRunHistory, readRunOverview, requireRunDirectory, type RunOverview } from '@skillopt/core';
import { writeLine } from '../../inspection/write-output.js';

export default class RunsShow extends SkillOptCommand {
  static override enableJsonFlag = true;
  static override summary = 'Show one run: its summary (or its state so far) and its step history.';
  static override description =
    'Reads a run directory without changing it. A finished run shows the summary `skillopt train` ended with; an unfinished one shows the state of its last commit (steps done, baseline, best and current validation scores, why it stopped and the command that resumes it). Then one row per committed step: its outcome, learning rate, the gate scores of candidate and incumbent and the reason.';
  static override examples = [
    { description: 'A run (here the one `skillopt train --out runs/first` wrote)', command: '<%= config.bin %> runs show runs/first' },
    { description: 'The same as JSON', command: '<%= config.bin %> runs show runs/first --json' },
  ];
  static override args = {
    dir: Args.string({ description: 'the run directory', required: true }),
  };
  static override flags = {
    json: Flags.boolean({ description: 'print the overview and the step records as JSON' }),
  };

  async run(): Promise<Record<string, unknown> | undefined> {
    const { args } = await this.parse(RunsShow);
    const workingDirectory = process.cwd();
    const directory = requireRunDirectory(args.dir, workingDirectory);
    const run = await readRunOverview(directory);
    const history = await readRunHistory(directory, run.state?.lastCompletedStep ?? 0);

    if (this.jsonEnabled()) {
      const { summary, state, ...overview } = run;
      return { ...overview, summary: summary ?? null, state: state ?? null, history };
    }

    writeLine(formatHeading(run, path.relative(workingDirectory, directory) || '.'));
    writeLine('');
    if (run.summary && run.status === 'finished') writeLine(formatRunSummary(run.summary, coloursFor(process.stdout)).trimEnd());
    else writeLine(formatStateSoFar(run));
    writeLine('');
    if (history.length === 0) writeLine('No step committed yet.');
    else writeLine(`Steps\n${formatHistory(history)}`);
    if (run.skippedEventLines > 0) writeLine(`\n(${run.skippedEventLines} line(s) of events.jsonl were skipped: damaged, or a torn last line)`);
    const newer = Object.entries(run.newerEventTypes);
    if (newer.length > 0)
      writeLine(
        `\n(events of types this release does not know were skipped, written by a newer SkillOpt: ${newer.map(([type, count]) => `${type} ×${count}`).join(', ')})`,
      );
    return undefined;
  }
}

function formatHeading(run: RunOverview, name: string): string {
  const rows = [
    ['  run', `${run.runId ?? '—'} (${run.status}${run.stop ? `: ${run.stop.reason}` : ''})`],
    ['  env', run.environment ?? '—'],
    ['  target', run.targetModel ?? '—'],
    ['  optimizer', run.optimizerModel ?? '—'],
  ];
  return `Run directory ${name}\n${formatTable(rows)}`;
}

function formatStateSoFar(run: RunOverview): string {
  const state = run.state;
  if (!state) return 'Nothing committed yet: the run stopped before its baseline (resume it with `skillopt train --resume`).';
  const rows: string[][] = [
    [
      '  steps',
      `${state.lastCompletedStep} of ${run.stepsTotal ?? '?'} committed${state.epoch > 0 ? ` (epoch ${state.epoch}, step ${state.stepInEpoch})` : ''}`,
    ],
    ['  validation score', `${formatScore(run.baselineScore)} initial → ${formatScore(state.best.score)} best (from ${state.best.origin})`],
    ['  current skill', `${state.current.skillPath}, ${formatScore(state.current.score)} (from ${state.current.origin})`],
  ];
  if (state.completedEpochEndStages.length > 0)
    rows.push(['  epoch-end stages', state.completedEpochEndStages.map((marker) => `${marker.stage} (epoch ${marker.epoch})`).join(', ')]);
  if (run.stop) {
    rows.push(['  stopped', run.stop.message.split('\n')[0] ?? '']);
    rows.push(['  resume with', run.stop.resumeCommand]);
  }
  return `State so far\n${formatTable(rows)}`;
}

/** The step table of `runs show`. */
function formatHistory(history: readonly StepRecord[]): string {
  const rows: string[][] = [['step', 'epoch', 'outcome', 'lr', 'gate (candidate vs incumbent)', 'reason']];
  for (const record of history) {
    const learningRate = record.outcome === 'nothing-scored' ? undefined : record.learningRate;
    const gate = record.outcome === 'accepted' || record.outcome === 'rejected' ? record.gate : undefined;
    rows.push([
      String(record.step),
      String(record.epoch),
      record.outcome,
      learningRate === undefined ? '—' : String(learningRate),
      gate ? `${formatScore(gate.candidateScore)} vs ${formatScore(gate.incumbentScore)}` : '—',
      reasonOf(record).split('\n')[0] ?? '',
    ]);
  }
  return formatTable(rows);
}

/** Why the step ended as it did, in the words its record keeps. */
function reasonOf(record: StepRecord): string {
  switch (record.outcome) {
    case 'accepted':
    case 'rejected':
      return record.gate.reason;
    case 'stage-failed':
      return `${record.stageFailure.stage} failed: ${record.stageFailure.reason}`;
    default:
      return record.reason;
  }
}
