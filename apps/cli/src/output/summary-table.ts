import type { RolloutPhase, SplitName } from '@skillopt/contract';
import { splitOfRolloutPhase, type RunSummary } from '@skillopt/core';
import { type Colours, NO_COLOURS } from './colours.js';
import { formatCount, formatPerSplit, formatScore, formatTable, formatUsd } from './format.js';

/** The table `skillopt train` ends with (and `runs show` shows), styled with `colours` (default: none). */
export function formatRunSummary(summary: RunSummary, colours: Colours = NO_COLOURS): string {
  const simulated = (summary.simulatedRoles ?? []).length > 0;
  const rows: string[][] = [
    [
      'validation score',
      `${formatScore(summary.baseline.score)} → ${formatScore(summary.best.score)} ${colours.dim(`(best skill from ${summary.best.origin})`)}`,
    ],
  ];
  if (summary.test) {
    const { initial, best, final } = summary.test;
    rows.push([
      'test accuracy',
      `${formatScore(initial.hard)} initial skill → ${formatScore(best.hard)} best skill (${formatLift(initial.hard, best.hard)})` +
        (final ? `; final skill ${formatScore(final.hard)}` : ''),
    ]);
    // One type is the overall figure again; several show where the skill helped and where it did not.
    const byTaskType = summary.test.byTaskType ?? [];
    if (byTaskType.length > 1)
      for (const bucket of byTaskType)
        rows.push([
          `  ${bucket.taskType}`,
          `${formatScore(bucket.initial)} → ${formatScore(bucket.best)} best, ${formatScore(bucket.final)} final (${bucket.items} items)`,
        ]);
  }
  rows.push(['candidates', `${colours.green(`${summary.acceptedCandidates} accepted`)}, ${colours.red(`${summary.rejectedCandidates} rejected`)} by the gate`]);
  for (const [role, totals] of Object.entries(summary.usage.byRole))
    rows.push([
      `${role} calls`,
      `${formatCount(totals.calls)} calls, ${formatCount(totals.inputTokens)} tokens in, ${formatCount(totals.outputTokens)} out${totals.estimatedUsageCalls > 0 ? ' (estimated)' : ''}`,
    ]);
  rows.push(['cost', formatUsd(summary.usage.overall.costUsd, summary.usage.overall.unpricedCalls)]);
  rows.push([
    'rollouts',
    `${formatCount(summary.rollouts.run)} run, ${formatCount(summary.rollouts.cacheHits)} from the cache, ${describeExclusions(summary.excludedItems, colours)}`,
  ]);
  // Latency slots: the run's critical path in call latencies (wall time at latency L is at least slots × L).
  const criticalPath = summary.latencySlots === undefined ? '' : `, ${formatCount(summary.latencySlots)} latency slots`;
  rows.push(['sequential waves', `${formatCount(summary.sequentialWaves)}${criticalPath}`]);
  if (summary.stageFailures.length > 0) rows.push(['failed stages', colours.red(`${summary.stageFailures.length} (see the step records)`)]);
  rows.push(['run directory', summary.runDirectory]);
  rows.push(['best skill', colours.bold(summary.bestSkillPath)]);
  const heading = `Run ${summary.runId} on ${summary.environmentId}${simulated ? ` with the ${colours.yellow(colours.bold('SIMULATED'))} model (no real model was called)` : ''}`;
  return `${heading}\n${formatTable(rows.map((row) => [colours.dim(`  ${row[0]}`), row[1] as string]))}\n`;
}

function formatLift(before: number | null, after: number | null): string {
  if (before === null || after === null) return 'no lift: a score is missing';
  const lift = after - before;
  return `${lift >= 0 ? '+' : ''}${(lift * 100).toFixed(1)} points`;
}

const SPLIT_LABELS: Record<SplitName, string> = { train: 'training', val: 'validation', test: 'test' };

/** Items excluded for infrastructure failures, per split: "none excluded" or "2 validation, 1 test excluded". */
function describeExclusions(excluded: ReadonlyArray<{ phase: string }>, colours: Colours): string {
  const counts: Record<SplitName, number> = { train: 0, val: 0, test: 0 };
  for (const item of excluded) counts[splitOfRolloutPhase(item.phase as RolloutPhase)] += 1;
  const described = `${formatPerSplit(counts, SPLIT_LABELS) || 'none'} excluded (infrastructure)`;
  return excluded.length > 0 ? colours.yellow(described) : described;
}
