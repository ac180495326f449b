import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { readRunLedger, readRunOverview } from '@skillopt/core';
import { createSimulatorServer, type SimulatorServer } from '@skillopt/backends-sim';
import { createEnvironment } from '@skillopt/env-searchqa';
import { startRedisServer, type TestRedisServer } from '@skillopt/executor-bullmq/testing';
import { type CliProcess, killStartedProcesses, startSkillopt } from './helpers/cli-process';

// Each test starts a Redis server, three workers and a trainer as processes: up to 47 s at a load
// of 13 on two cores, so more room than the CLI's other tests get. The limit is there to catch a
// hang, not to time the runs.
jest.setTimeout(600_000);

// The demo's rollouts run on three `skillopt worker` processes through a real redis-server on a
// loopback port: the run is the in-process run, also when a worker is killed mid-run, when Redis
// restarts empty mid-run, and a Ctrl-C of the trainer leaves no job waiting.
const WORKERS = ['worker-a', 'worker-b', 'worker-c'];
const repositoryRoot = path.resolve(__dirname, '..', '..', '..');
// Every call takes a little while, so that workers are caught with calls in flight.
const LATENCY = 'backends.sim.latency_ms=20';

describe('distributed rollouts (run.executor: bullmq)', () => {
  let redis: TestRedisServer;
  let directory: string;
  let reference: string;
  let workers: Map<string, CliProcess>;

  beforeAll(async () => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-distributed-'));
    const inProcess = startSkillopt(['demo', '--out', 'in-process', '--set', LATENCY], directory);
    expect((await inProcess.ended).code).toBe(0);
    reference = readFileSync(path.join(directory, 'in-process', 'best_skill.md'), 'utf8');
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  beforeEach(async () => {
    redis = await startRedisServer();
    workers = new Map(
      WORKERS.map((name) => [
        name,
        startSkillopt(
          ['worker', '--redis-url', redis.url, '--concurrency', '4', '--name', name, '--lock-duration-ms', '1000', '--stalled-interval-ms', '500'],
          directory,
        ),
      ]),
    );
  });
  afterEach(async () => {
    for (const worker of workers.values()) worker.signal('SIGKILL');
    await Promise.all([...workers.values()].map((worker) => worker.ended));
    killStartedProcesses();
    await redis.stop();
  });

  function startDistributedDemo(out: string, latency = LATENCY): CliProcess {
    return startSkillopt(['demo', '--out', out, '--set', latency, '--set', 'run.executor=bullmq', '--redis-url', redis.url], directory);
  }

  /** Resolves once the run's ledger has a call made by `worker`. */
  async function untilWorkerCalled(out: string, worker = ''): Promise<void> {
    const file = path.join(directory, out, 'ledger.jsonl');
    while (!(existsSync(file) && readFileSync(file, 'utf8').includes(`"worker":"${worker}`))) await delay(20);
  }

  /**
   * Resolves once `worker` runs one of the run's jobs. Between two waves of rollouts a worker has
   * nothing to do, and on a loaded machine that lasts long enough for a kill to find none.
   */
  async function untilWorkerRunsAJob(out: string, worker: string): Promise<void> {
    const { runId } = await readRunOverview(path.join(directory, out));
    const queue = `bull:skillopt-run-${runId}`;
    const activeJobsOfWorker =
      "local n = 0 for _, id in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do if redis.call('HGET', ARGV[1] .. id, 'pb') == ARGV[2] then n = n + 1 end end return n";
    while ((await redisCommand(redis.port, 'EVAL', activeJobsOfWorker, '1', `${queue}:active`, `${queue}:`, worker)) === ':0') await delay(5);
  }

  /** The target calls a model was asked (a rollout cache's answers are the trainer's own lines). */
  async function targetEntries(out: string) {
    return (await readRunLedger(path.join(directory, out))).filter((entry) => entry.role === 'target' && !entry.cacheHit);
  }

  it('gives the same best skill as in process, every target call made and named by a worker', async () => {
    const trainer = startDistributedDemo('three-workers');
    const ended = await trainer.ended;
    expect(ended.code).toBe(0);
    expect(readFileSync(path.join(directory, 'three-workers', 'best_skill.md'), 'utf8')).toBe(reference);
    const entries = await targetEntries('three-workers');
    const inProcessCalls = (await targetEntries('in-process')).length;
    expect(entries).toHaveLength(inProcessCalls);
    expect(entries.every((entry) => WORKERS.includes(entry.worker ?? ''))).toBe(true);
    expect(new Set(entries.map((entry) => entry.worker)).size).toBeGreaterThan(1);
  });

  it('retries the jobs of a worker killed mid-run elsewhere; one result counts, and both attempts are in the ledger', async () => {
    // Calls of 200 ms: a job worker-a is found running still has its call in flight when it is killed.
    const trainer = startDistributedDemo('killed-worker', 'backends.sim.latency_ms=200');
    await untilWorkerCalled('killed-worker', 'worker-a');
    await untilWorkerRunsAJob('killed-worker', 'worker-a');
    workers.get('worker-a')?.signal('SIGKILL');
    const ended = await trainer.ended;
    expect(ended.code).toBe(0);
    expect(readFileSync(path.join(directory, 'killed-worker', 'best_skill.md'), 'utf8')).toBe(reference);
    const entries = await targetEntries('killed-worker');
    const unfinished = entries.filter((entry) => entry.errorCode === 'worker-call-unfinished');
    expect(unfinished.length).toBeGreaterThan(0);
    expect(unfinished.every((entry) => entry.worker === 'worker-a')).toBe(true);
    // Every succeeded call is one the in-process run made too: the killed attempts are the extra ones.
    expect(entries.filter((entry) => entry.outcome === 'succeeded').length).toBe((await targetEntries('in-process')).length);
  });

  it('waits for a Redis restarted empty mid-run, enqueues the jobs it lost again, and finishes', async () => {
    const trainer = startDistributedDemo('redis-restarted');
    await untilWorkerCalled('redis-restarted');
    await redis.kill('SIGKILL');
    await delay(300);
    await redis.start();
    const ended = await trainer.ended;
    expect(ended.code).toBe(0);
    expect(ended.stderr).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+ is unreachable .*; waiting for it to come back/);
    expect(ended.stderr).toMatch(/is no longer in Redis; it is enqueued again/);
    expect(readFileSync(path.join(directory, 'redis-restarted', 'best_skill.md'), 'utf8')).toBe(reference);
  });

  it('removes the waiting jobs on Ctrl-C, and the run resumes to the same best skill', async () => {
    const trainer = startDistributedDemo('interrupted');
    await untilWorkerCalled('interrupted');
    trainer.signal('SIGINT');
    const ended = await trainer.ended;
    expect(ended.code).toBe(130);
    const { runId } = await readRunOverview(path.join(directory, 'interrupted'));
    expect(await redisCommand(redis.port, 'LLEN', `bull:skillopt-run-${runId}:wait`)).toBe(':0');

    const resumed = startSkillopt(['train', '--resume', 'interrupted', '--redis-url', redis.url], directory);
    expect((await resumed.ended).code).toBe(0);
    expect(readFileSync(path.join(directory, 'interrupted', 'best_skill.md'), 'utf8')).toBe(reference);
  });

  it('stops resumable on Ctrl-C while Redis is away, letting go of it after a bounded wait, and resumes once it is back', async () => {
    const trainer = startSkillopt(
      ['demo', '--out', 'redis-away', '--set', LATENCY, '--set', 'run.executor=bullmq', '--redis-url', redis.url, '--redis-close-timeout-ms', '300'],
      directory,
    );
    await untilWorkerCalled('redis-away');
    await redis.kill('SIGKILL');
    // Long enough for every connection to be refused a few times (they retry every 100 ms at first).
    await delay(300);
    trainer.signal('SIGINT');
    const ended = await trainer.ended;
    expect(ended.code).toBe(130);
    expect(ended.stderr).toMatch(/Redis did not answer while run \S+ was closed; its jobs in Redis are left as they are/);
    expect(ended.stderr).not.toContain('Unhandled error event');
    expect(ended.stdout).toContain('Resume with: skillopt train --resume redis-away');

    await redis.start();
    const resumed = startSkillopt(['train', '--resume', 'redis-away', '--redis-url', redis.url], directory);
    expect((await resumed.ended).code).toBe(0);
    expect(readFileSync(path.join(directory, 'redis-away', 'best_skill.md'), 'utf8')).toBe(reference);
  });

  it('stops a worker on SIGTERM while Redis is away, and a second SIGTERM quits one that would wait long', async () => {
    const patient = startSkillopt(['worker', '--redis-url', redis.url, '--name', 'patient', '--close-timeout-ms', '600000'], directory);
    const brief = startSkillopt(['worker', '--redis-url', redis.url, '--name', 'brief', '--close-timeout-ms', '200'], directory);
    const trainer = startDistributedDemo('workers-stopped');
    // Each has taken up the run: its BullMQ worker needs Redis to close.
    await untilWorkerCalled('workers-stopped', 'patient');
    await untilWorkerCalled('workers-stopped', 'brief');
    await redis.kill('SIGKILL');
    trainer.signal('SIGKILL');
    brief.signal('SIGTERM');
    patient.signal('SIGTERM');
    const briefEnded = await brief.ended;
    expect(briefEnded.code).toBe(0);
    expect(briefEnded.stderr).toMatch(/Redis did not answer within 200 ms while the worker stopped; it stops without it/);
    expect(briefEnded.stderr).not.toContain('Unhandled error event');
    patient.signal('SIGTERM');
    expect((await patient.ended).code).toBe(143);
  });

  it("leaves a killed trainer's queued jobs in Redis once its heartbeat expires, and a resume finishes them", async () => {
    // One worker of four rollouts at once, so that most of a step's jobs wait in the queue.
    for (const worker of workers.values()) worker.signal('SIGKILL');
    const lonely = startSkillopt(['worker', '--redis-url', redis.url, '--concurrency', '4', '--name', 'lonely', '--discovery-interval-ms', '50'], directory);
    workers.set('lonely', lonely);
    const trainer = startSkillopt(
      [
        'demo',
        '--out',
        'abandoned',
        '--set',
        LATENCY,
        '--set',
        'run.executor=bullmq',
        '--redis-url',
        redis.url,
        '--redis-heartbeat-interval-ms',
        '50',
        '--redis-heartbeat-ttl-ms',
        '200',
      ],
      directory,
    );
    await untilWorkerCalled('abandoned', 'lonely');
    trainer.signal('SIGKILL');
    await trainer.ended;
    const { runId } = await readRunOverview(path.join(directory, 'abandoned'));
    const queue = `bull:skillopt-run-${runId}`;
    // The worker finishes the rollouts it runs and takes no other once the heartbeat has expired.
    while ((await redisCommand(redis.port, 'LLEN', `${queue}:active`)) !== ':0') await delay(20);
    const waiting = await redisCommand(redis.port, 'LLEN', `${queue}:wait`);
    const workerCalls = await redisCommand(redis.port, 'XLEN', `skillopt:run:${runId}:ledger`);
    expect(Number(waiting.slice(1))).toBeGreaterThan(0);
    // Several discovery rounds of the worker and lives of the heartbeat.
    await delay(500);
    expect(await redisCommand(redis.port, 'LLEN', `${queue}:active`)).toBe(':0');
    expect(await redisCommand(redis.port, 'LLEN', `${queue}:wait`)).toBe(waiting);
    expect(await redisCommand(redis.port, 'XLEN', `skillopt:run:${runId}:ledger`)).toBe(workerCalls);

    const resumed = startSkillopt(['train', '--resume', 'abandoned', '--redis-url', redis.url], directory);
    expect((await resumed.ended).code).toBe(0);
    expect(readFileSync(path.join(directory, 'abandoned', 'best_skill.md'), 'utf8')).toBe(reference);
    lonely.signal('SIGTERM');
    expect((await lonely.ended).stderr).toMatch(/run \S+ has no trainer \(its heartbeat expired\); its queued jobs wait for the run's resume/);
  });
});

describe('distributed rollouts: provider limits shared through Redis', () => {
  let redis: TestRedisServer;
  let server: SimulatorServer;
  let directory: string;
  const workers: CliProcess[] = [];

  beforeAll(async () => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-distributed-limits-'));
    redis = await startRedisServer();
    const environment = await createEnvironment({ split_mode: 'split_dir', split_dir: path.join(repositoryRoot, 'datasets/demo') });
    const items = (await Promise.all((['train', 'val', 'test'] as const).map((split) => environment.loadSplit(split)))).flat();
    server = await createSimulatorServer({ port: 0, items });
    for (const name of ['worker-a', 'worker-b'])
      workers.push(startSkillopt(['worker', '--redis-url', redis.url, '--concurrency', '4', '--name', name], directory));
  });
  afterAll(async () => {
    for (const worker of workers) worker.signal('SIGKILL');
    await Promise.all(workers.map((worker) => worker.ended));
    killStartedProcesses();
    await server.close();
    await redis.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  it("counts the trainer's and every worker's calls to one provider in one limit", async () => {
    const trainer = startSkillopt(
      [
        'train',
        '--config',
        path.join(repositoryRoot, 'configs/features/openai-via-sim.yaml'),
        '--set',
        `backends.openai.base_url=${server.url}`,
        '--set',
        'backends.openai.requests_per_minute=100000',
        '--set',
        'train.num_epochs=1',
        '--set',
        'run.executor=bullmq',
        '--redis-url',
        redis.url,
        '--out',
        'openai-limits',
      ],
      directory,
    );
    const ended = await trainer.ended;
    expect(ended.code).toBe(0);
    const calls = (await readRunLedger(path.join(directory, 'openai-limits'))).filter((entry) => !entry.cacheHit && entry.outcome === 'succeeded');
    expect(calls.some((entry) => entry.role === 'optimizer' && entry.worker === undefined)).toBe(true);
    expect(calls.some((entry) => entry.role === 'target' && entry.worker !== undefined)).toBe(true);
    // One scope (one endpoint, no key), so one window of request starts holds every call of the run.
    const windows = await redisCommand(redis.port, 'EVAL', "return #redis.call('KEYS', ARGV[1])", '0', 'skillopt:rate-limits:*:window');
    expect(windows).toBe(':1');
    const started = await redisCommand(redis.port, 'EVAL', "return redis.call('ZCARD', redis.call('KEYS', ARGV[1])[1])", '0', 'skillopt:rate-limits:*:window');
    expect(started).toBe(`:${calls.length}`);
  });
});

/** One Redis command over a plain socket, its reply line as Redis wrote it (`:0`, `+OK`). */
function redisCommand(port: number, ...words: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    socket.once('error', reject);
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().split('\r\n')[0] ?? '');
    });
    socket.connect(port, '127.0.0.1', () =>
      socket.write(`${words.map((word) => `$${Buffer.byteLength(word)}\r\n${word}\r\n`).reduce((command, part) => command + part, `*${words.length}\r\n`)}`),
    );
  });
}
