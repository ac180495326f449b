import { summariseEntries, type RunSummary } from '@skillopt/core';
import { coloursFor } from '../src/output/colours';
import { formatRunSummary } from '../src/output/summary-table';

function summary(overrides: Partial<RunSummary> = {}): RunSummary {
  const scores = (hard: number | null) => ({ hard, soft: hard, scored: hard === null ? 0 : 4, excluded: hard === null ? 4 : 0 });
  return {
    runId: 'run-1',
    runDirectory: '/runs/one',
    environmentId: 'searchqa',
    targetModel: 'openai-compatible/sim-target',
    optimizerModel: 'openai-compatible/sim-optimizer',
    splitSizes: { train: 8, val: 4, test: 8 },
    epochs: 1,
    stepsPerEpoch: 2,
    baseline: { score: 0.25, selectionHard: 0.25, selectionSoft: 0.25 } as RunSummary['baseline'],
    best: { score: 0.75, selectionHard: 0.75, selectionSoft: 0.75, origin: 'step-2', step: 2, skillHash: 'abc' } as RunSummary['best'],
    test: {
      initial: scores(0.25),
      best: scores(0.75),
      final: scores(0.5),
      byTaskType: [
        { taskType: 'date', items: 4, initial: 0, best: 1, final: 0.5 },
        { taskType: 'number', items: 4, initial: 0.5, best: 0.5, final: 0.5 },
      ],
    },
    simulatedRoles: [],
    acceptedCandidates: 1,
    rejectedCandidates: 1,
    stageFailures: [],
    excludedItems: [
      { phase: 'baseline', itemId: 'v1', code: 'provider-timeout', message: 'timed out' },
      { phase: 'selection', itemId: 'v2', code: 'provider-timeout', message: 'timed out' },
      { phase: 'test', itemId: 't1', code: 'provider-timeout', message: 'timed out' },
    ],
    rollouts: { run: 20, cacheHits: 4, retries: 1 },
    sequentialWaves: 6,
    usage: summariseEntries([]),
    bestSkillPath: '/runs/one/best_skill.md',
    ...overrides,
  };
}

describe('the summary table', () => {
  it('labels a run SIMULATED from the backends that are simulators, never from a model name', () => {
    expect(formatRunSummary(summary())).not.toContain('SIMULATED');
    expect(formatRunSummary(summary({ simulatedRoles: ['target', 'optimizer'] }))).toContain('with the SIMULATED model');
    // A summary written before the field existed is not labelled by guessing.
    const { simulatedRoles: _ignored, ...older } = summary();
    expect(formatRunSummary(older as RunSummary)).not.toContain('SIMULATED');
  });

  it('shows the test score of the final skill beside the initial and the best, and each task type', () => {
    const table = formatRunSummary(summary());
    expect(table).toMatch(/test accuracy\s+25\.0% initial skill → 75\.0% best skill \(\+50\.0 points\); final skill 50\.0%/);
    expect(table).toMatch(/date\s+0\.0% → 100\.0% best, 50\.0% final \(4 items\)/);
    expect(table).toMatch(/number\s+50\.0% → 50\.0% best, 50\.0% final \(4 items\)/);
  });

  it('shows a score computed from nothing as a dash, and the exclusions per split', () => {
    const scores = { hard: null, soft: null, scored: 0, excluded: 8 };
    const table = formatRunSummary(summary({ test: { initial: scores, best: scores } }));
    expect(table).toMatch(/test accuracy\s+— initial skill → — best skill \(no lift: a score is missing\)/);
    expect(table).toContain('2 validation, 1 test excluded (infrastructure)');
    expect(formatRunSummary(summary({ excludedItems: [] }))).toContain('none excluded (infrastructure)');
  });

  it('styles the SIMULATED label, the decisions and the labels only when given colours, aligned as without', () => {
    const plain = formatRunSummary(summary({ simulatedRoles: ['target'] }));
    expect(plain).not.toContain('\u001b[');
    const coloured = formatRunSummary(summary({ simulatedRoles: ['target'] }), coloursFor({ isTTY: false }, { FORCE_COLOR: '1' }));
    expect(coloured).toContain('\u001b[33m\u001b[1mSIMULATED\u001b[22m\u001b[39m');
    expect(coloured).toContain('\u001b[32m1 accepted\u001b[39m, \u001b[31m1 rejected\u001b[39m');
    expect(coloured).toContain('\u001b[33m2 validation, 1 test excluded (infrastructure)\u001b[39m');
    expect(coloured.replace(/\u001b\[[0-9;]*m/g, '')).toBe(plain);
  });
});
