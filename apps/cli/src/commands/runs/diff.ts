import path from 'node:path';
import { Args, Flags } from '@oclif/core';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { SkillOptCommand } from '../../base-command.js';
import { formatScore } from '../../output/format.js';

import { readRunHistory, readRunOverview, readSkillTimeline, requireRunDirectory, unifiedDiff, type GateSummary, type SkillVersion } from '@skillopt/core';
import { writeLine } from '../../inspection/write-output.js';

export default class RunsDiff extends SkillOptCommand {
  static override enableJsonFlag = true;
  static override summary = 'Show how a run changed its skill, one accepted step at a time.';
  static override description =
    'Prints the skill text between two versions as unified line diffs, one per change that was let in: each accepted step (with the gate decision that accepted it: the candidate and incumbent scores, the items that improved or regressed, the reason) and each accepted epoch-end slow update. Version N is the skill after global step N and the epoch-end update that followed it, if any (0 is the initial skill); by default the diff goes from the initial skill to the best one. --combined prints one diff from the first version to the last instead.';
  static override examples = [
    { description: 'From the initial skill to the best one', command: '<%= config.bin %> runs diff runs/first' },
    { description: 'What steps 1 and 2 changed', command: '<%= config.bin %> runs diff runs/first --from 0 --to 2' },
    { description: 'Everything at once', command: '<%= config.bin %> runs diff runs/first --combined' },
  ];
  static override args = {
    dir: Args.string({ description: 'the run directory', required: true }),
  };
  static override flags = {
    from: Flags.integer({ description: 'the version to start from: the skill after this global step (0: the initial skill)', min: 0 }),
    to: Flags.integer({ description: 'the version to end at: the skill after this global step (default: the best skill)', min: 0 }),
    combined: Flags.boolean({ description: 'one diff from --from to --to instead of one per accepted change' }),
    json: Flags.boolean({ description: 'print the changes and their diffs as JSON' }),
  };

  async run(): Promise<Record<string, unknown> | undefined> {
    const { args, flags } = await this.parse(RunsDiff);
    const workingDirectory = process.cwd();
    const directory = requireRunDirectory(args.dir, workingDirectory);
    const { state } = await readRunOverview(directory);
    if (!state) throw usageError(`${args.dir} has no committed skill yet: the run stopped before its baseline was committed`);
    const history = await readRunHistory(directory, state.lastCompletedStep);
    const timeline = await readSkillTimeline(directory, history, state);
    if (timeline[0]?.kind !== 'initial')
      throw usageError(`${path.join(args.dir, 'skills', 'skill_v0000.md')} (the initial skill) is missing, so there is nothing to diff against`);

    const last = state.lastCompletedStep;
    for (const [name, value] of [
      ['--from', flags.from],
      ['--to', flags.to],
    ] as const)
      if (value !== undefined && value > last) throw usageError(`${name} ${value}: the run has committed steps 0 to ${last} only`);
    // Version N: the skill after step N, with the epoch-end update that followed it, if any.
    const fromOrder = flags.from === undefined ? 0 : flags.from * 2 + 1;
    // Default end: the best skill, wherever it came from (a step or an epoch-end update).
    const bestVersion = [...timeline].reverse().find((version) => version.hash === state.best.skillHash);
    const toOrder = flags.to !== undefined ? flags.to * 2 + 1 : bestVersion ? bestVersion.order : (state.best.step ?? last) * 2 + 1;
    if (flags.to === undefined && flags.from === undefined && toOrder === 0) {
      if (this.jsonEnabled())
        return {
          from: { file: timeline[0].file, step: 0, label: timeline[0].label },
          to: { file: timeline[0].file, step: 0, label: timeline[0].label },
          rejectedCandidates: 0,
          changes: [],
        };
      writeLine('The best skill is the initial skill: no accepted change scored better. Use --to N to see what the run changed anyway.');
      return undefined;
    }
    if (toOrder <= fromOrder)
      throw usageError(
        `--to must come after --from (got from ${flags.from ?? 0} to ${flags.to ?? Math.floor(toOrder / 2)}; the best skill is from ${state.best.origin})`,
      );

    const start = versionAt(timeline, fromOrder);
    const changes = timeline.filter((version) => version.order > fromOrder && version.order <= toOrder);
    const end = changes.at(-1) ?? start;
    const rejected = history.filter((record) => record.step * 2 > fromOrder && record.step * 2 <= toOrder && record.outcome === 'rejected').length;
    const range = `${describeVersion(start)} → ${describeVersion(end)}`;

    const entries = flags.combined
      ? [{ version: end, previous: start }]
      : changes.map((version, index) => ({ version, previous: index === 0 ? start : (changes[index - 1] as SkillVersion) }));
    const diffs = entries.map(({ version, previous }) => ({
      version,
      previous,
      diff: unifiedDiff(previous.text, version.text, { fromName: `a/${previous.file}`, toName: `b/${version.file}` }),
    }));

    if (this.jsonEnabled())
      return {
        from: { file: start.file, step: start.step, label: start.label },
        to: { file: end.file, step: end.step, label: end.label },
        rejectedCandidates: rejected,
        changes: diffs.map(({ version, previous, diff }) => ({
          kind: flags.combined ? 'combined' : version.kind,
          step: version.step,
          label: version.label,
          fromFile: previous.file,
          toFile: version.file,
          gate: flags.combined ? null : (version.gate ?? null),
          added: diff.added,
          removed: diff.removed,
          diff: diff.text,
        })),
      };

    if (changes.length === 0) {
      writeLine(
        `No accepted change in this range: the skill stays ${describeVersion(start)}.${rejected > 0 ? ` (${rejected} candidate(s) were rejected by the gate.)` : ''}`,
      );
      return undefined;
    }
    writeLine(
      `Skill changes in ${path.relative(workingDirectory, directory) || '.'}: ${range}, ${changes.length} accepted change(s)${rejected > 0 ? `, ${rejected} rejected candidate(s) not shown` : ''}`,
    );
    for (const { version, previous, diff } of diffs) {
      writeLine('');
      if (flags.combined) writeLine(`== ${describeVersion(previous)} → ${describeVersion(version)} (+${diff.added} −${diff.removed} lines)`);
      else writeLine(`== ${version.label}: ${describeGate(version)} (+${diff.added} −${diff.removed} lines)`);
      writeLine(diff.text === '' ? '(no textual change)' : diff.text.trimEnd());
    }
    return undefined;
  }
}

function usageError(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message });
}

/** The version in effect at an order: the last one at or before it. */
function versionAt(timeline: readonly SkillVersion[], order: number): SkillVersion {
  let found = timeline[0] as SkillVersion;
  for (const version of timeline) if (version.order <= order) found = version;
  return found;
}

function describeVersion(version: SkillVersion): string {
  return version.kind === 'initial' ? 'the initial skill' : `${version.label} (${version.file})`;
}

function describeGate(version: SkillVersion): string {
  const gate: GateSummary | undefined = version.gate;
  if (!gate) return version.kind === 'epoch-end' ? 'accepted without a selection gate' : 'accepted (no gate decision recorded)';
  const parts = [`accepted by the ${gate.strategy ?? ''} gate`.replace('the  gate', 'the gate')];
  if (gate.candidateScore !== undefined) parts.push(`candidate ${formatScore(gate.candidateScore)} vs incumbent ${formatScore(gate.incumbentScore)}`);
  if (gate.itemsEvaluated !== undefined) parts.push(`on ${gate.itemsEvaluated}${gate.itemsTotal === undefined ? '' : ` of ${gate.itemsTotal}`} items`);
  if (gate.improvedItems !== undefined) parts.push(`${gate.improvedItems} improved, ${gate.regressedItems ?? 0} regressed`);
  return `${parts.join(', ')}${gate.reason ? ` — ${gate.reason}` : ''}`;
}
