import os from 'node:os';
import path from 'node:path';
import { Flags } from '@oclif/core';
import { redactSecretText, type TaskItem } from '@skillopt/contract';
import { createPackageResolver, prepareRun } from '@skillopt/core';
import { SkillOptCommand, STOP_SIGNAL_NAMES, STOP_SIGNALS } from '../base-command.js';
import { loadBullmqExecutor } from '../distributed/bullmq-executor-package.js';
import { REDIS_URL_VARIABLE, redisUrlOf } from '../distributed/redis-url.js';
import { cliInstallDirectory } from '../run-setup/command-config.js';
import { waitForStopSignal } from '../serving/stop-signal.js';

export default class Worker extends SkillOptCommand {
  static override summary = 'Run the rollouts of distributed runs (run.executor: bullmq) taken from Redis, with this machine’s credentials.';
  static override description = [
    'Takes the rollout jobs of every active run from Redis (a run trains with run.executor: bullmq) and runs them here: each run is prepared once from the config its jobs carry, with the env and backend packages and the datasets of this machine (they must be installed here, at the paths the config names) and the credentials of this environment. A job whose trainer runs other package or specification versions is refused with what differs. Each call made here goes to the trainer’s ledger, named by this worker.',
    `The Redis URL comes from --redis-url (without credentials) or from ${REDIS_URL_VARIABLE} (which may carry them; they never appear in a message). It needs @skillopt/executor-bullmq installed beside the CLI or in the working directory. It runs until SIGINT (Ctrl-C) or SIGTERM, then stops taking jobs, lets the running rollouts finish and exits 0, waiting at most 10 s for a Redis that is away; a second signal quits at once.`,
  ].join('\n\n');
  static override examples = [
    {
      description: 'Take jobs from a Redis on this machine, 4 rollouts at once',
      command: '<%= config.bin %> worker --redis-url redis://127.0.0.1:6379 --concurrency 4',
    },
    {
      description: 'A Redis with a password: the URL goes in the environment',
      command: 'SKILLOPT_REDIS_URL=redis://:password@redis.internal:6379 <%= config.bin %> worker',
    },
  ];
  static override flags = {
    'redis-url': Flags.string({ description: `the Redis to take jobs from, without credentials (a URL with them goes in ${REDIS_URL_VARIABLE})` }),
    concurrency: Flags.integer({ description: 'rollouts run at once, per run', default: 4, min: 1 }),
    name: Flags.string({ description: 'what the ledger and the events call this worker (default <host>:<pid>)' }),
    // BullMQ's lock on a running job and its check for stalled jobs: short in tests of a killed worker.
    'lock-duration-ms': Flags.integer({ hidden: true, min: 1 }),
    'stalled-interval-ms': Flags.integer({ hidden: true, min: 1 }),
    // How long a stopping worker waits for a Redis that is away: short in tests of an outage.
    'close-timeout-ms': Flags.integer({ hidden: true, min: 1 }),
    // How often the active runs and their heartbeats are read: short in tests of a killed trainer.
    'discovery-interval-ms': Flags.integer({ hidden: true, min: 1 }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Worker);
    const url = redisUrlOf(flags['redis-url']);
    const workingDirectory = process.cwd();
    const resolver = createPackageResolver({ workingDirectory, fallbackDirectories: [cliInstallDirectory()] });
    const bullmq = await loadBullmqExecutor(resolver);
    const controller = new AbortController();
    const stop = waitForStopSignal();
    // The URL's password, if any, is cut out wherever it shows up, also inside an error's message.
    const log = (message: string) => process.stderr.write(`${redactSecretText(message, [passwordOf(url)])}\n`);
    void stop.promise.then((signal) => {
      log(`Stopping once the running rollouts end (${signal === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again to quit at once)…`);
      controller.abort();
      // A second signal ends the worker whatever it waits for: its running jobs go to other workers once their locks expire.
      const quit = (again: NodeJS.Signals) => process.exit(again === 'SIGINT' ? STOP_SIGNALS.SIGINT : STOP_SIGNALS.SIGTERM);
      for (const name of STOP_SIGNAL_NAMES) process.once(name, quit);
    });
    log(
      `Worker ${flags.name ?? `${os.hostname()}:${process.pid}`} taking rollout jobs from ${bullmq.displayRedisUrl(url)} (${flags.concurrency} at once per run); Ctrl-C stops it.`,
    );
    // Every call made here counts against the provider's limits together with the other workers' and the trainer's.
    const sharedRateLimits = bullmq.shareRateLimitsThroughRedis({ url });
    try {
      await bullmq.runWorker({
        url,
        concurrency: flags.concurrency,
        signal: controller.signal,
        workDirectory: path.join(os.tmpdir(), `skillopt-worker-${process.pid}`),
        ...(flags.name === undefined ? {} : { workerName: flags.name }),
        ...(flags['lock-duration-ms'] === undefined ? {} : { lockDurationMs: flags['lock-duration-ms'] }),
        ...(flags['stalled-interval-ms'] === undefined ? {} : { stalledIntervalMs: flags['stalled-interval-ms'] }),
        ...(flags['close-timeout-ms'] === undefined ? {} : { closeTimeoutMs: flags['close-timeout-ms'] }),
        ...(flags['discovery-interval-ms'] === undefined ? {} : { discoveryIntervalMs: flags['discovery-interval-ms'] }),
        onNotice: log,
        async prepareRun(request) {
          const run = await prepareRun({
            layers: [{ name: `the config of run ${request.runId}`, config: request.config, directory: workingDirectory }],
            overrides: [],
            workingDirectory,
            resolver,
            needsOptimizer: false,
          });
          await run.environment.setup?.();
          const items = new Map<string, TaskItem>([...run.splits.train, ...run.splits.val, ...run.splits.test].map((item) => [item.id, item]));
          return {
            environment: run.environment,
            target: run.target,
            versions: bullmq.runVersions(run),
            findItem: (itemId) => items.get(itemId),
            close: async () => {
              await run.environment.teardown?.();
            },
          };
        },
      });
    } finally {
      stop.dispose();
      await sharedRateLimits.close();
    }
    // BullMQ's own connections to a Redis that is away reconnect until it answers and cannot be
    // closed before: they would keep a stopped worker alive.
    process.exit(0);
  }
}

function passwordOf(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}
