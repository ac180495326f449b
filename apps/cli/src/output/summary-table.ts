import type { RunSummary } from '@skillopt/core';
import { formatCount, formatScore, formatTable, formatUsd } from './format.js';

/** The table `skillopt train` ends with. */
export function formatRunSummary(summary: RunSummary): string {
  const simulated = /(^|\/)sim[/-]/.test(summary.targetModel) || /(^|\/)sim[/-]/.test(summary.optimizerModel);
  const rows: string[][] = [
    ['validation score', `${formatScore(summary.baseline.score)} → ${formatScore(summary.best.score)} (best skill from ${summary.best.origin})`],
  ];
  if (summary.test)
    rows.push([
      'test accuracy',
      `${formatScore(summary.test.initial.hard)} initial skill → ${formatScore(summary.test.best.hard)} best skill (${formatLift(summary.test.best.hard - summary.test.initial.hard)})`,
    ]);
  rows.push(['candidates', `${summary.acceptedCandidates} accepted, ${summary.rejectedCandidates} rejected by the gate`]);
  for (const [role, totals] of Object.entries(summary.usage.byRole))
    rows.push([
      `${role} calls`,
      `${formatCount(totals.calls)} calls, ${formatCount(totals.inputTokens)} tokens in, ${formatCount(totals.outputTokens)} out${totals.estimatedUsageCalls > 0 ? ' (estimated)' : ''}`,
    ]);
  rows.push(['cost', formatUsd(summary.usage.overall.costUsd, summary.usage.overall.unpricedCalls)]);
  rows.push([
    'rollouts',
    `${formatCount(summary.rollouts.run)} run, ${formatCount(summary.rollouts.cacheHits)} from the cache, ${summary.excludedItems.length} excluded (infrastructure)`,
  ]);
  rows.push(['sequential waves', formatCount(summary.sequentialWaves)]);
  if (summary.stageFailures.length > 0) rows.push(['failed stages', `${summary.stageFailures.length} (see the step records)`]);
  rows.push(['run directory', summary.runDirectory]);
  rows.push(['best skill', summary.bestSkillPath]);
  const heading = `Run ${summary.runId} on ${summary.environmentId}${simulated ? ' with the SIMULATED model (no real model was called)' : ''}`;
  return `${heading}\n${formatTable(rows.map((row) => [`  ${row[0]}`, row[1] as string]))}\n`;
}

function formatLift(lift: number): string {
  const points = (lift * 100).toFixed(1);
  return `${lift >= 0 ? '+' : ''}${points} points`;
}
