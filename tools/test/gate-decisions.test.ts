import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

// The strict gate's decisions over the demo's seeds 1–5, recorded in a fixture: the full gate must
// still make exactly them, and the early-stopping one the same decision on every candidate and
// incumbent pair it gates too (its runs may take another path after an early rejection, because the
// optimizer is shown a partial score: so the comparison is per pair, not per run).
const bench = path.join(__dirname, '..', 'bench', 'gate-bench.mjs');
const fixture = JSON.parse(readFileSync(path.join(__dirname, '..', 'bench', 'fixtures', 'strict-gate-decisions.json'), 'utf8')) as {
  runs: Array<{ seed: number; decisions: GateDecision[] }>;
};

interface GateDecision {
  globalStep: number;
  candidateHash: string;
  incumbentHash: string;
  accepted: boolean;
}

async function benchDecisions(earlyStop: boolean): Promise<Array<{ seed: number; decisions: GateDecision[] }>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [bench, '--world', 'demo', '--strategies', 'strict', '--seeds', '1,2,3,4,5', '--set', `evaluation.strict_early_stop=${earlyStop}`, '--json'],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout) as { runs: Array<{ seed: number; decisions: GateDecision[] }> };
  return result.runs.map((run) => ({
    seed: run.seed,
    decisions: run.decisions.map(({ globalStep, candidateHash, incumbentHash, accepted }) => ({ globalStep, candidateHash, incumbentHash, accepted })),
  }));
}

describe('the strict gate against its recorded decisions (demo, seeds 1–5)', () => {
  it('makes exactly the recorded decisions', async () => {
    expect(await benchDecisions(false)).toEqual(fixture.runs);
  }, 120_000);

  it('with early stopping, decides every pair it shares with the record as the record does', async () => {
    const recorded = new Map(
      fixture.runs.flatMap((run) => run.decisions.map((decision) => [`${decision.candidateHash}>${decision.incumbentHash}`, decision.accepted])),
    );
    let shared = 0;
    for (const run of await benchDecisions(true))
      for (const decision of run.decisions) {
        const expected = recorded.get(`${decision.candidateHash}>${decision.incumbentHash}`);
        if (expected === undefined) continue;
        shared += 1;
        expect({ seed: run.seed, step: decision.globalStep, accepted: decision.accepted }).toEqual({
          seed: run.seed,
          step: decision.globalStep,
          accepted: expected,
        });
      }
    // Every run shares at least its first gate with the record.
    expect(shared).toBeGreaterThanOrEqual(fixture.runs.length);
  }, 120_000);
});
