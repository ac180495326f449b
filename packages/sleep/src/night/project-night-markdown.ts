import type { NightUsage } from './night-report.js';
import { renderNightReport } from './night-report-markdown.js';
import type { SkillNightResult } from './skill-night.js';

export interface ProjectNightSummary {
  night: number;
  outcome: string;
  skills: readonly SkillNightResult[];
  usage: NightUsage;
  checkpointAdvanced: boolean;
}

/** One heading level down, outside code fences (a staged document's own headings stay as they are). */
function demoteHeadings(markdown: string): string {
  let inFence = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (line.startsWith('```')) inFence = !inFence;
      return !inFence && /^#{1,5} /.test(line) ? `#${line}` : line;
    })
    .join('\n');
}

function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${(value * 100).toFixed(1)}%`;
}

/**
 * A `sleep run` night as a person reads it. One skill: its report as `dry-run` prints it. Several:
 * a table of the skills first (outcome, validation before and after, staged or not), then each
 * skill's report a level down.
 */
export function renderProjectNight(summary: ProjectNightSummary): string {
  const ran = summary.skills.filter((skill) => skill.report !== undefined);
  const only = summary.skills.length === 1 ? summary.skills[0] : undefined;
  if (only?.report !== undefined) return renderNightReport(only.report);
  const lines = [`# SkillOpt Sleep night ${summary.night}: ${summary.skills.length} skills, ${summary.outcome}`, ''];
  lines.push('| skill | outcome | validation before | after | staged |', '| --- | --- | --- | --- | --- |');
  for (const skill of summary.skills) {
    const validation = skill.report?.validation;
    lines.push(
      `| ${skill.skill} | ${skill.outcome}${skill.reason === undefined ? '' : `: ${skill.reason}`} | ${percent(validation?.before.score)} | ${percent(validation?.after.score)} | ${skill.staging === null ? 'no' : `\`${skill.staging.directory}\``} |`,
    );
  }
  const purposes = Object.entries(summary.usage.byPurpose)
    .map(([purpose, calls]) => `${purpose} ${calls}`)
    .join(', ');
  lines.push('', `${summary.usage.calls} model calls in all (${purposes}), $${summary.usage.costUsd.toFixed(4)}.`);
  lines.push(summary.checkpointAdvanced ? 'The checkpoints moved: the next night reads only newer sessions.' : 'No checkpoint moved.');
  for (const skill of ran) lines.push('', demoteHeadings(renderNightReport(skill.report!).trimEnd()));
  return `${lines.join('\n')}\n`;
}
