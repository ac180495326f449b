import path from 'node:path';
import { Flags } from '@oclif/core';
import {
  estimateRun,
  lockRunDirectory,
  prepareRun,
  readRunOverview,
  train,
  type DirectoryLock,
  type RunConfigRequest,
  type RunSummary,
  type SkillOptConfig,
} from '@skillopt/core';
import type { Target } from '@skillopt/contract';
import { distributedExecutorOf, type SharedRateLimits, shareRateLimitsWhenDistributed } from '../distributed/distributed-train.js';
import { configFlags, overridesOf, STOP_SIGNAL_NAMES, STOP_SIGNALS, type StopSignal, stoppedBy } from '../base-command.js';
import { coloursFor } from '../output/colours.js';
import { createProgressDisplay, type ProgressMode } from '../output/progress-display.js';
import { formatRunSummary } from '../output/summary-table.js';
import { runConfigRequestOf } from '../run-setup/command-config.js';
import { requireSomeConfig } from '../run-setup/missing-config.js';
import { readSkillFile } from '../run-setup/skill-file.js';
import { StreamingCommand } from '../streaming-command.js';

export default class Train extends StreamingCommand {
  static override summary = 'Train a skill document: rollouts, reflection, gated updates, a final test.';
  static override description =
    'Runs the SkillOpt loop of the config: per step the target rolls out a batch with the current skill, the optimizer proposes edits, and the validation gate accepts the candidate only if it beats the incumbent. Everything is written to the run directory; a stopped run resumes with --resume.';
  static override examples = [
    {
      description: 'Train the starter project of `skillopt init` (its skillopt.config.yaml is found without --config; the simulated model, no API key)',
      command: '<%= config.bin %> train',
    },
    {
      description: 'Two epochs, into a directory of your choice',
      command: '<%= config.bin %> train -c skillopt.config.yaml --set train.num_epochs=2 --out runs/first',
    },
    {
      description: 'Resume a stopped run, with a raised budget',
      command: '<%= config.bin %> train --resume runs/first --set budget.optimizer.max_calls=500',
    },
    { description: 'Stream the run events as JSON lines', command: '<%= config.bin %> train --json > events.jsonl' },
  ];
  static override flags = {
    ...configFlags,
    out: Flags.string({ char: 'o', description: 'run directory (default: env.out_root, else outputs/skillopt_<env>_<optimizer>_<time>)' }),
    resume: Flags.string({
      description: 'resume the run in this directory (its config.json is the config; --set still applies)',
      exclusive: ['config', 'out'],
    }),
    json: Flags.boolean({ description: 'print the run events as JSON lines on stdout, then one result or error line (docs/cli-json.md)' }),
    'redis-url': Flags.string({
      description: 'with run.executor: bullmq, the Redis the rollout jobs go to, without credentials (a URL with them goes in SKILLOPT_REDIS_URL)',
    }),
    // How long a stopping run waits for a Redis that is away: short in tests of an outage.
    'redis-close-timeout-ms': Flags.integer({ hidden: true, min: 1 }),
    // How often the run's heartbeat is refreshed and how long it lives: short in tests of a killed trainer.
    'redis-heartbeat-interval-ms': Flags.integer({ hidden: true, min: 1 }),
    'redis-heartbeat-ttl-ms': Flags.integer({ hidden: true, min: 1 }),
  };

  /** One run per directory: held from before the run's state is read until the command ends, however it ends. */
  private runDirectoryLock: DirectoryLock | undefined;
  /** A distributed run's rate limits, counted in Redis with its workers' until the command ends. */
  private sharedRateLimits: SharedRateLimits | undefined;

  async run(): Promise<RunSummary> {
    // `skillopt demo` is this command with its own flags and config (commands/demo.ts).
    const { flags } = await this.parse(this.constructor as typeof Train);
    const workingDirectory = process.cwd();
    const resumeDirectory = flags.resume ? path.resolve(workingDirectory, flags.resume) : undefined;
    if (resumeDirectory) await this.lockRunDirectory(resumeDirectory, true);
    const request = await this.runConfigRequest(flags, workingDirectory, resumeDirectory !== undefined);
    // One moment for the default name, so that the backends and the run are given the same directory.
    const startedAt = new Date();
    const runDirectoryOf = (config: SkillOptConfig): string =>
      resumeDirectory ??
      path.resolve(
        workingDirectory,
        flags.out ?? config.env.out_root ?? defaultRunDirectory(config.env.name, config.model.optimizer ?? config.model.optimizer_backend, startedAt),
      );
    const run = await prepareRun({
      ...request,
      ...(resumeDirectory ? { resumeDirectory } : {}),
      needsOptimizer: true,
      beforeBackendsCreated: async (config) => {
        this.sharedRateLimits = await shareRateLimitsWhenDistributed(config, { resolver: request.resolver, redisUrlFlag: flags['redis-url'] });
      },
      // The backends keep their files in the run directory (the handoff backend's requests), where --resume finds them.
      backendFilesDirectory: runDirectoryOf,
    });
    for (const warning of run.warnings) this.warn(warning.message);
    const { config } = run;
    const runDirectory = runDirectoryOf(config);
    if (!resumeDirectory) await this.lockRunDirectory(runDirectory, false);
    const initialSkill = config.env.skill_init ? await readSkillFile(config.env.skill_init) : undefined;
    const distributed = await distributedExecutorOf(run, {
      resolver: request.resolver,
      redisUrlFlag: flags['redis-url'],
      ...(flags['redis-close-timeout-ms'] === undefined ? {} : { closeTimeoutMs: flags['redis-close-timeout-ms'] }),
      ...(flags['redis-heartbeat-interval-ms'] === undefined ? {} : { heartbeatIntervalMs: flags['redis-heartbeat-interval-ms'] }),
      ...(flags['redis-heartbeat-ttl-ms'] === undefined ? {} : { heartbeatTtlMs: flags['redis-heartbeat-ttl-ms'] }),
      notice: (message) => process.stderr.write(`${message}\n`),
    });

    const mode: ProgressMode = this.jsonEnabled() ? 'json' : process.stdout.isTTY ? 'terminal' : 'lines';
    if (mode !== 'json' && resumeDirectory !== undefined && (await readRunOverview(resumeDirectory)).state?.finished === true)
      this.log(`The run in ${path.relative(workingDirectory, resumeDirectory) || '.'} already finished: nothing is trained or paid for again.`);
    if (mode !== 'json' && resumeDirectory === undefined) this.log(describeEstimate(config, run.splitSizes, run.target));
    const colours = coloursFor(process.stdout);
    const display = createProgressDisplay(mode, { write: (text) => process.stdout.write(text) }, { colours, columns: () => process.stdout.columns });
    const controller = new AbortController();
    // Ctrl-C and SIGTERM (a service manager's or container's stop) both stop at the next safe point.
    const interrupt = (signal: StopSignal) => {
      if (controller.signal.aborted) process.exit(STOP_SIGNALS[signal]);
      process.stderr.write(`\nStopping at a safe point (${signal === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again to quit at once)…\n`);
      controller.abort(stoppedBy(signal));
    };
    for (const signal of STOP_SIGNAL_NAMES) process.once(signal, interrupt);
    this.resumeCommand = `${this.config.bin} train --resume ${path.relative(workingDirectory, runDirectory) || '.'}`;
    try {
      const summary = await train({
        config,
        environment: run.environment,
        target: run.target,
        optimizer: run.optimizer!,
        optimizerAgent: run.optimizerAgent,
        priceTable: run.priceTable,
        splits: run.splits,
        simulatedRoles: run.simulatedRoles,
        runDirectory,
        resume: resumeDirectory !== undefined,
        ...(initialSkill !== undefined ? { initialSkill } : {}),
        signal: controller.signal,
        onEvent: display.onEvent,
        resumeCommand: this.resumeCommand,
        ...distributed,
      });
      display.finish();
      this.log(`\n${formatRunSummary(summary, colours)}`);
      return summary;
    } catch (error) {
      display.finish();
      if (controller.signal.aborted) throw controller.signal.reason;
      throw error;
    } finally {
      for (const signal of STOP_SIGNAL_NAMES) process.removeListener(signal, interrupt);
    }
  }

  /** The run's config: the discovered project config and --config (a resumed run's is its config.json). */
  protected async runConfigRequest(
    flags: { config?: string | undefined; set: string[]; 'cfg-options': string[] },
    workingDirectory: string,
    resuming: boolean,
  ): Promise<RunConfigRequest> {
    const request = await runConfigRequestOf({ ...(flags.config ? { configFile: flags.config } : {}), overrides: overridesOf(flags), workingDirectory });
    if (!resuming) requireSomeConfig(request, { bin: this.config.bin, withConfig: `${this.config.bin} train --config <file>` });
    return request;
  }

  override async finally(error: Error | undefined): Promise<unknown> {
    await this.sharedRateLimits?.close();
    await this.runDirectoryLock?.release();
    return super.finally(error);
  }

  private async lockRunDirectory(directory: string, resume: boolean): Promise<void> {
    this.runDirectoryLock = await lockRunDirectory(directory, { resume, command: [this.config.bin, this.id, ...this.argv].join(' ') });
    const stale = this.runDirectoryLock.tookOverFrom;
    if (stale) this.warn(`took over the lock of ${directory} left by pid ${stale.pid} (started ${stale.startedAt}), which no longer runs`);
  }
}

/**
 * The pre-run estimate of calls and of the time they take, so nobody starts a paid run blind: the
 * wall time is the critical path in latency slots at the simulator's configured latency, or per
 * second of a real model's latency (which no config states).
 */
function describeEstimate(config: SkillOptConfig, splitSizes: { train: number; val: number; test: number }, target: Target): string {
  const estimate = estimateRun(config, splitSizes, target);
  const targetModel = target.kind === 'chat' ? target.model : target.runner;
  const simulatedLatencyMs = targetModel.provider === 'sim' ? Number((config.backends.sim as { latency_ms?: unknown } | undefined)?.latency_ms ?? 0) : 0;
  const slots = estimate.latencySlots;
  const wall =
    simulatedLatencyMs > 0
      ? `about ${formatSeconds((slots * simulatedLatencyMs) / 1000)} at the simulator's ${simulatedLatencyMs} ms per call`
      : `about ${formatSeconds(slots)} for each second a call takes`;
  return (
    `Estimate: at most about ${estimate.perRun.optimizerCalls} optimizer calls and ${estimate.perRun.targetEpisodes} target episodes ` +
    `(${estimate.totalSteps} steps; work already cached costs nothing); a critical path of at most about ${slots} latency slots, ${wall}`
  );
}

function formatSeconds(seconds: number): string {
  return seconds < 120 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 60)} min`;
}

function defaultRunDirectory(environmentName: string, optimizer: string, startedAt: Date): string {
  const stamp = startedAt.toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
  const safe = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '-');
  return path.join('outputs', `skillopt_${safe(path.basename(environmentName))}_${safe(optimizer)}_${stamp}`);
}
