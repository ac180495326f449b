import path from 'node:path';
import { Flags } from '@oclif/core';
import { dryRunNight, nightExitCode, nightInputFiles, PERSONAS, rethrowAsAnswersPendingStop } from '@skillopt/sleep';
import { writeLine, writeWarning } from '../../inspection/write-output.js';
import { EXIT_CODES } from '../../base-command.js';
import { MODEL_FLAGS } from '../../sleep/model-flags.js';
import { sleepConfigRequest } from '../../sleep/sleep-config-request.js';
import { StreamingCommand } from '../../streaming-command.js';

export default class SleepDryRun extends StreamingCommand {
  static override summary = 'Run one whole Sleep night on a task file and print its report; nothing is staged.';
  static override description = [
    "The night of SkillOpt-Sleep on tasks already mined (a task file, as `sleep` mines it or as you reviewed it): each task is replayed with the skill document's learned rules and judged, the optimizer proposes edits on those rules from the failures, and the gate accepts them only if the held-out validation tasks score strictly better (evaluation.gate_strategy strict or paired, evaluation.no_regression, evaluation.must_pass). Test tasks are scored and reported, never used to decide.",
    "The skill document is only read: the report shows what would be staged. It and the night's run (every replay, the ledger, the events) are written under --out, by default a new ~/.skillopt-sleep/dry-runs/<timestamp>-<suffix>. The simulated model is the default backend; name another with --set model.target_backend=… (and the optimizer's) or a --config file. A night whose tasks cannot be judged, or whose held-out tasks are also training tasks, is refused with its reason and exits 1.",
    'With the handoff backend (--backend handoff, its package installed beside) a night whose model requests wait for answers stops with exit code 3 and names the folder they wait in, ~/.skillopt-sleep/dry-runs/handoff (its index.json lists them): answer each one, then run the same command again. The answers written are reused, so each run gets further until the night finishes; a night an earlier run left in --out is replaced.',
  ].join('\n\n');
  static override examples = [
    { description: 'The shipped researcher persona on the simulated model', command: '<%= config.bin %> sleep dry-run --persona researcher' },
    {
      description: 'The programmer persona with the paired gate, as one JSON result line',
      command: '<%= config.bin %> sleep dry-run --persona programmer --set evaluation.gate_strategy=paired --json',
    },
  ];
  static override flags = {
    tasks: Flags.string({ description: 'the task file (skillopt.sleep.tasks.v1, or the original SkillOpt-Sleep format)', exclusive: ['persona'] }),
    skill: Flags.string({ description: 'the skill document whose learned block the night trains (read, never written)', exclusive: ['persona'] }),
    persona: Flags.string({ description: `a shipped example instead of --tasks and --skill: ${PERSONAS.join(' or ')}` }),
    ...MODEL_FLAGS,
    config: Flags.string({ char: 'c', description: 'a SkillOpt config file (backends, gate settings) over the night defaults' }),
    set: Flags.string({ description: 'one config value, key=value (repeatable), e.g. evaluation.no_regression=true', multiple: true }),
    out: Flags.string({
      description: "where the night's files go (default ~/.skillopt-sleep/dry-runs/<timestamp>-<suffix>); a night an earlier dry run left there is replaced",
    }),
    json: Flags.boolean({ description: 'print the report as one result line (docs/cli-json.md) instead of Markdown' }),
  };

  async run(): Promise<object> {
    const { flags } = await this.parse(SleepDryRun);
    const workingDirectory = process.cwd();
    const { tasksFile, skillFile } = nightInputFiles(flags);
    const request = await sleepConfigRequest(flags, workingDirectory);
    const night = await dryRunNight({
      tasksFile,
      skillFile,
      ...(flags.out === undefined ? {} : { outputDirectory: flags.out }),
      layers: request.layers,
      overrides: request.overrides,
      workingDirectory,
      resolver: request.resolver,
    }).catch(rethrowAsAnswersPendingStop(`${this.config.bin} sleep dry-run`));
    for (const warning of night.warnings) writeWarning(warning);
    if (nightExitCode(night.report) === 1) process.exitCode = EXIT_CODES.runFailed;
    if (this.jsonEnabled()) return night.report;
    process.stdout.write(night.markdown);
    writeLine(`\nReport written to ${path.relative(workingDirectory, path.join(night.outputDirectory, 'report.md')) || 'report.md'}`);
    return night.report;
  }
}
