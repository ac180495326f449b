import type { HardSoftScore, NightReport } from './night-report.js';

function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? 'n/a' : `${(value * 100).toFixed(1)}%`;
}

function hardSoft(score: HardSoftScore): string {
  return `hard ${percent(score.hard)}, soft ${percent(score.soft)}`;
}

function bullets(lines: readonly string[], empty: string): string[] {
  return lines.length === 0 ? [`_${empty}_`] : lines.map((line) => `- ${line}`);
}

const OUTCOME_TITLES: Record<NightReport['outcome'], string> = {
  accepted: 'the gate accepted new rules',
  rejected: 'the gate kept the rules as they were',
  refused: 'nothing could be validated',
  'budget-spent': 'a budget stopped it',
};

/** The night's report as a person reads it: the outcome first, then the evidence behind it. */
export function renderNightReport(report: NightReport): string {
  const lines = [
    `# SkillOpt Sleep night${report.night === undefined ? '' : ` ${report.night}`}${report.dryRun ? ' (dry run)' : ''}: ${OUTCOME_TITLES[report.outcome]}`,
    '',
  ];
  lines.push(`Skill document: \`${report.documentPath}\``, '');
  const { tasks } = report;
  lines.push(
    '## Tasks',
    '',
    `${tasks.total} tasks, ${tasks.replayed} replayed: ${tasks.bySplit.train} train, ${tasks.bySplit.val} validation, ${tasks.bySplit.test} test.`,
  );
  if (tasks.unjudgeable.length > 0)
    lines.push('', `${tasks.unjudgeable.length} left out because nothing can judge them:`, ...tasks.unjudgeable.map((task) => `- ${task.id}: ${task.reason}`));
  if (tasks.excluded.length > 0)
    lines.push(
      '',
      `${tasks.excluded.length} excluded after their backend or judge kept failing (never scored):`,
      ...tasks.excluded.map((task) => `- ${task.id} (${task.phase}): ${task.code}, ${task.message}`),
    );
  lines.push('');
  if (report.refusal !== undefined) {
    lines.push('## Why nothing was learned', '', `The night was not run: ${report.refusal.reason}.`, '', 'Nothing would be staged.', '');
    return `${lines.join('\n')}`;
  }
  if (report.budget !== undefined) {
    lines.push(
      '## Why it stopped',
      '',
      ...report.budget.spent.map((limit) => `- ${limit.configKey}: ${limit.used} of ${limit.max} used`),
      '',
      'The gate decided nothing, nothing is staged and no checkpoint moved: the next night starts over. Raise the limit with --set to let a night finish.',
      '',
    );
    appendUsage(lines, report);
    return `${lines.join('\n')}\n`;
  }
  lines.push('## Scores', '');
  if (report.validation !== undefined) {
    const { before, after, gateMetric } = report.validation;
    lines.push(`| Split | Before | After |`, '| --- | --- | --- |');
    lines.push(`| validation (${gateMetric} gate score) | ${percent(before.score)} (${hardSoft(before)}) | ${percent(after.score)} (${hardSoft(after)}) |`);
    if (report.test !== undefined)
      lines.push(`| test, ${report.test.scored} tasks (reported, never decides) | ${hardSoft(report.test.before)} | ${hardSoft(report.test.after)} |`);
    if (report.train !== undefined) lines.push(`| train (the rules before the night) | ${hardSoft(report.train)} | |`);
    lines.push('');
  }
  lines.push('## Gate decisions', '');
  if (report.gateDecisions.length === 0) lines.push('_No candidate reached the gate: the optimizer proposed no change._');
  for (const decision of report.gateDecisions) {
    const partial = decision.partial ? ` (stopped early: scores over ${decision.itemsEvaluated} of ${decision.itemsTotal} validation tasks)` : '';
    lines.push(`- ${decision.accepted ? 'accepted' : 'rejected'} by the ${decision.strategy} gate${partial}: ${decision.reason}`);
  }
  lines.push('', '## Rules', '', 'Added:', ...bullets(report.rules.added, 'none'), '', 'Removed:', ...bullets(report.rules.removed, 'none'), '');
  appendStaging(lines, report);
  appendUsage(lines, report);
  if (report.runDirectory !== undefined) lines.push('', `Every replay, the ledger and the events: \`${report.runDirectory}\``);
  return `${lines.join('\n')}\n`;
}

function appendStaging(lines: string[], report: NightReport): void {
  lines.push(report.dryRun ? '## What would be staged' : '## Staged for review', '');
  if (report.stagingRefusal !== undefined) lines.push(`Nothing was staged: ${report.stagingRefusal}`, '');
  else if (report.staged !== undefined)
    lines.push(
      `Staged in \`${report.staged.directory}\`. The live document is unchanged until you adopt it (\`sleep adopt\`); \`sleep adopt --undo\` puts it back.`,
      '',
    );
  if (report.wouldStage === null)
    lines.push(report.dryRun ? 'Nothing: the skill document would stay as it is.' : 'Nothing: the skill document stays as it is.');
  else if (report.stagingRefusal === undefined)
    lines.push(`\`${report.wouldStage.documentPath}\` with its learned block rewritten:`, '', '```markdown', report.wouldStage.document.trimEnd(), '```');
}

function appendUsage(lines: string[], report: NightReport): void {
  if (report.usage !== undefined) {
    const purposes = Object.entries(report.usage.byPurpose)
      .filter(([, calls]) => calls > 0)
      .map(([purpose, calls]) => `${purpose} ${calls}`)
      .join(', ');
    const cost = report.usage.unpricedCalls > 0 ? `at least $${report.usage.costUsd.toFixed(4)}` : `$${report.usage.costUsd.toFixed(4)}`;
    lines.push(
      '',
      '## Calls',
      '',
      `${report.usage.calls} model calls (${purposes}), ${report.usage.inputTokens} input and ${report.usage.outputTokens} output tokens, ${cost}.`,
    );
  }
}
