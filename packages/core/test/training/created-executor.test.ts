import { createInProcessExecutor, type Executor, type ExecutorRun, train } from '../../src/index';
import { readLedgerFile } from '../../src/ledger/ledger-file';
import { createArithmeticEnvironment, createScriptedOptimizer, createScriptedTarget, trainingConfig } from './scripted-training-doubles';
import { temporaryRunDirectories } from './temporary-run-directories';

// Each test trains a run, which a loaded machine slows many times over: the limit is there to
// catch a hang, not to time the run.
jest.setTimeout(300_000);

// A distributed executor is made once the run has its id and ledger, records its workers' calls
// there, and is closed when the run ends.
const runDirectory = temporaryRunDirectories('skillopt-created-executor-');

describe('an executor train() creates', () => {
  it('gets the run id and ledger, may record the calls of workers, and is closed as finished', async () => {
    const runs: ExecutorRun[] = [];
    const closed: boolean[] = [];
    const directory = runDirectory();
    await train({
      config: trainingConfig({ run: { retries: 1 } }),
      environment: createArithmeticEnvironment(),
      target: { kind: 'chat', model: createScriptedTarget().model },
      optimizer: createScriptedOptimizer().model,
      runDirectory: directory,
      createExecutor(run): Executor {
        runs.push(run);
        run.ledger.record({
          role: 'target',
          purpose: 'rollout',
          provider: 'sim',
          modelId: 'm',
          latencyMs: 5,
          usage: { inputTokens: 3, outputTokens: 1 },
          worker: 'host-a:12',
        });
        run.ledger
          .begin({ role: 'target', purpose: 'rollout', provider: 'sim', modelId: 'm', estimatedUsage: { inputTokens: 2, outputTokens: 0 }, worker: 'host-b:7' })
          .failed({ latencyMs: 0, errorCode: 'worker-lost' });
        const inProcess = createInProcessExecutor({ maxRolloutsInFlight: 2 });
        return {
          ...inProcess,
          async close({ finished }) {
            closed.push(finished);
          },
        };
      },
    });
    expect(runs).toHaveLength(1);
    expect(runs[0]?.runId).toMatch(/\S/);
    expect(runs[0]?.emit).toBeInstanceOf(Function);
    expect(closed).toEqual([true]);
    const lines = await readLedgerFile(`${directory}/ledger.jsonl`);
    expect(lines.entries.filter((entry) => entry.worker !== undefined).map((entry) => [entry.worker, entry.outcome])).toEqual([
      ['host-a:12', 'succeeded'],
      ['host-b:7', 'failed'],
    ]);
  });
});
