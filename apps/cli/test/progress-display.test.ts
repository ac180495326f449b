import type { RunEvent } from '@skillopt/contract';
import { createProgressDisplay, type ProgressMode } from '../src/output/progress-display';

const base = { runId: 'run-1', timestamp: '2026-12-01T00:00:00.000Z' };
const events: RunEvent[] = [
  { ...base, type: 'epoch-started', epoch: 1 },
  { ...base, type: 'step-started', epoch: 1, step: 1, globalStep: 1, itemIds: ['a', 'b'], learningRate: 2 },
  {
    ...base,
    type: 'item-rolled-out',
    phase: 'train',
    skillHash: 'h',
    itemId: 'a',
    sampleIndex: 0,
    errorCode: 'provider-timeout',
    cached: false,
    completed: 1,
    total: 2,
  },
  { ...base, type: 'item-rolled-out', phase: 'train', skillHash: 'h', itemId: 'b', sampleIndex: 0, hard: 1, soft: 1, cached: false, completed: 2, total: 2 },
  {
    ...base,
    type: 'item-rolled-out',
    phase: 'selection',
    skillHash: 'h',
    itemId: 'v',
    sampleIndex: 0,
    errorCode: 'provider-timeout',
    cached: false,
    completed: 1,
    total: 4,
  },
  { ...base, type: 'step-finished', epoch: 1, step: 1, globalStep: 1, accepted: false, bestScore: 0.5, excludedItems: 2 },
  { ...base, type: 'epoch-finished', epoch: 1, bestScore: 0.5 },
];

function shown(mode: ProgressMode): string {
  let output = '';
  const display = createProgressDisplay(mode, { write: (text) => (output += text) });
  for (const event of events) display.onEvent(event);
  display.finish();
  return output;
}

describe('the progress display', () => {
  it('shows the items excluded so far per split on the status line of a terminal', () => {
    expect(shown('terminal')).toContain('| excluded 1 train, 1 val');
  });

  it("shows each step's exclusions, and the totals per split at the end of an epoch, in line mode", () => {
    const output = shown('lines');
    expect(output).toContain('  step 1: 2 items excluded (infrastructure)\n');
    expect(output).toContain('Epoch 1 finished: best validation 50.0%; excluded so far (infrastructure): 1 train, 1 val\n');
  });
});
