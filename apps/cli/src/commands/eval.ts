import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Flags } from '@oclif/core';
import { ERROR_CODES, SkillOptError, type SplitName } from '@skillopt/contract';
import { evaluate, prepareRun, type EvaluationReport } from '@skillopt/core';
import { configFlags, overridesOf, SkillOptCommand, STOP_SIGNAL_NAMES, type StopSignal, stoppedBy } from '../base-command.js';
import { formatCount, formatScore, formatTable, formatUsd } from '../output/format.js';
import { runConfigRequestOf } from '../run-setup/command-config.js';
import { readSkillFile } from '../run-setup/skill-file.js';
import { requireSomeConfig } from '../run-setup/missing-config.js';
import { writeLine, writeWarning } from '../inspection/write-output.js';

const SPLITS = ['test', 'val', 'train'] as const;

export default class Eval extends SkillOptCommand {
  static override enableJsonFlag = true;
  static override summary = 'Evaluate one skill on one split, without training.';
  static override description =
    'Rolls the skill out with the target model of the config on every item of the split (test by default; evaluation.test_env_num, sel_env_num or train.train_size limit it as in training) and prints the items scored and excluded, the mean hard score (pass rate) and soft score (partial credit), and the calls and tokens it took. No optimizer model is called. Items whose rollout keeps failing for infrastructure reasons are excluded from the means and listed.';
  static override examples = [
    {
      description: "The best skill of a run (here runs/first, trained from `skillopt init`) on the test split, with the config's model",
      command: '<%= config.bin %> eval --skill runs/first/best_skill.md',
    },
    {
      description: 'The validation split, as JSON',
      command: '<%= config.bin %> eval -c skillopt.config.yaml --skill runs/first/best_skill.md --split val --json',
    },
    {
      description: 'A real target model (needs @skillopt/backends-openai and OPENAI_API_KEY)',
      command: '<%= config.bin %> eval --skill runs/first/best_skill.md --set model.target_backend=openai --set model.target=gpt-5.4-mini',
    },
  ];
  static override flags = {
    ...configFlags,
    skill: Flags.string({ description: 'the skill document (markdown) to evaluate', required: true }),
    split: Flags.string({ description: 'the split to evaluate on', options: [...SPLITS], default: 'test' }),
    json: Flags.boolean({ description: 'print the evaluation report as JSON (summary, every item, usage)' }),
  };

  async run(): Promise<EvaluationReport & { skillFile: string }> {
    const { flags } = await this.parse(Eval);
    const workingDirectory = process.cwd();
    const split = flags.split as SplitName;
    const skillFile = path.resolve(workingDirectory, flags.skill);
    const skill = await readSkillFile(path.isAbsolute(flags.skill) ? flags.skill : path.relative(workingDirectory, skillFile));
    if (skill.trim() === '')
      throw new SkillOptError({
        code: ERROR_CODES.configInvalid,
        category: 'user',
        message: `the skill file ${flags.skill} is empty; evaluate a skill with some text in it`,
      });
    const configRequest = await runConfigRequestOf({ ...(flags.config ? { configFile: flags.config } : {}), overrides: overridesOf(flags), workingDirectory });
    requireSomeConfig(configRequest, { bin: this.config.bin, withConfig: `${this.config.bin} eval --config <file> --skill ${flags.skill}` });
    const run = await prepareRun({ ...configRequest, needsOptimizer: false });
    for (const warning of run.warnings) writeWarning(warning.message);
    if (run.splitSizes[split] === 0)
      throw new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: `the ${split} split of ${run.environment.id} has no items` });

    const workDirectory = await mkdtemp(path.join(os.tmpdir(), 'skillopt-eval-'));
    const controller = new AbortController();
    const interrupt = (signal: StopSignal) => controller.abort(stoppedBy(signal));
    for (const signal of STOP_SIGNAL_NAMES) process.once(signal, interrupt);
    let report: EvaluationReport;
    try {
      report = await evaluate({
        config: run.config,
        environment: run.environment,
        target: run.target,
        skill,
        split,
        items: run.splits[split],
        workDirectory,
        signal: controller.signal,
        priceTable: run.priceTable,
      });
    } catch (error) {
      if (controller.signal.aborted) throw controller.signal.reason;
      throw error;
    } finally {
      for (const signal of STOP_SIGNAL_NAMES) process.removeListener(signal, interrupt);
      await rm(workDirectory, { recursive: true, force: true });
    }

    if (!this.jsonEnabled()) writeLine(formatReport(report, path.relative(workingDirectory, skillFile) || skillFile, run.simulatedRoles.includes('target')));
    return { skillFile, ...report };
  }
}

function formatReport(report: EvaluationReport, skillName: string, simulated: boolean): string {
  const { summary } = report;
  const rows: string[][] = [
    ['  env', report.environmentId],
    ['  split', `${report.split} (${summary.scoredCount + summary.excludedCount} items)`],
    ['  skill', `${skillName} (${report.skillHash})`],
    ['  items', `${summary.scoredCount} scored, ${summary.excludedCount} excluded (infrastructure)`],
    // evaluate() refuses an evaluation that scored nothing, so both means are over scored items.
    ['  hard score', `${formatScore(summary.meanHard)} (pass rate)`],
    ['  soft score', `${formatScore(summary.meanSoft)} (partial credit)`],
  ];
  for (const [role, totals] of Object.entries(report.usage.byRole))
    rows.push([
      `  ${role} calls`,
      `${formatCount(totals.calls)} calls, ${formatCount(totals.inputTokens)} tokens in, ${formatCount(totals.outputTokens)} out${totals.estimatedUsageCalls > 0 ? ' (estimated)' : ''}`,
    ]);
  rows.push(['  cost', formatUsd(report.usage.overall.costUsd, report.usage.overall.unpricedCalls)]);
  const lines = [
    `Evaluation on ${report.environmentId}, ${report.split} split${simulated ? ' with the SIMULATED model (no real model was called)' : ''}`,
    formatTable(rows),
  ];
  const excluded = report.items.filter((item) => item.status === 'excluded');
  if (excluded.length > 0) {
    lines.push('', 'Excluded items (left out of both means):');
    for (const item of excluded) lines.push(`  ${item.itemId}: ${item.error.code}: ${item.error.message.split('\n')[0] ?? ''}`);
  }
  return lines.join('\n');
}
