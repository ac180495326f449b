import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type RunEvent, readRunEvent } from '@skillopt/contract';
import { coloursFor } from '../src/output/colours';
import { createProgressDisplay, type ProgressDisplayOptions, type ProgressMode } from '../src/output/progress-display';
import { visibleWidth } from '../src/output/terminal-width';

const base = { runId: 'run-1', timestamp: '2026-12-01T00:00:00.000Z' };
const at = (seconds: number) => new Date(Date.parse(base.timestamp) + seconds * 1000).toISOString();
const hash = '0123456789abcdef';
const rolledOut = (phase: 'train' | 'selection' | 'test' | 'baseline', itemId: string, completed: number, total: number, errorCode?: string): RunEvent => ({
  ...base,
  type: 'item-rolled-out',
  phase,
  skillHash: hash,
  itemId,
  sampleIndex: 0,
  ...(errorCode === undefined ? { hard: 1, soft: 1 } : { errorCode }),
  cached: false,
  completed,
  total,
});
const position = (globalStep: number) => ({ epoch: 1, step: globalStep, globalStep });
const runStarted: RunEvent = {
  ...base,
  type: 'run-started',
  runDirectory: '/runs/one',
  environmentId: 'searchqa',
  targetModel: 'sim/sim-target',
  optimizerModel: 'sim/sim-optimizer',
  splitSizes: { train: 8, val: 4, test: 2 },
  epochs: 1,
  stepsPerEpoch: 5,
  resumed: false,
};

/** One epoch of five steps: exclusions, then a step per way a step ends without a gate decision, then one gated. */
const events: RunEvent[] = [
  runStarted,
  { ...base, type: 'epoch-started', epoch: 1 },
  { ...base, type: 'step-started', ...position(1), itemIds: ['a', 'b'], learningRate: 2 },
  rolledOut('train', 'a', 1, 2, 'provider-timeout'),
  rolledOut('train', 'b', 2, 2),
  rolledOut('selection', 'v', 1, 4, 'provider-timeout'),
  rolledOut('selection', 'w', 2, 4, 'process-crashed'),
  { ...base, type: 'edits-proposed', ...position(1), stage: 'reflect', count: 3 },
  { ...base, type: 'candidate-evaluated', ...position(1), candidateHash: hash, candidateScore: 0.5, incumbentScore: 0.25, itemsEvaluated: 4 },
  {
    ...base,
    type: 'gate-decided',
    ...position(1),
    accepted: true,
    strategy: 'strict',
    reason: 'beats the incumbent',
    candidateScore: 0.5,
    incumbentScore: 0.25,
  },
  { ...base, type: 'step-finished', ...position(1), accepted: true, bestScore: 0.5, excludedItems: 3 },
  { ...base, type: 'step-started', ...position(2), itemIds: ['c', 'd'], learningRate: 2 },
  { ...base, type: 'edits-proposed', ...position(2), stage: 'reflect', count: 0 },
  { ...base, type: 'step-finished', ...position(2), accepted: false, bestScore: 0.5, excludedItems: 0 },
  { ...base, type: 'step-started', ...position(3), itemIds: ['e', 'f'], learningRate: 0 },
  { ...base, type: 'edits-proposed', ...position(3), stage: 'reflect', count: 2 },
  { ...base, type: 'edits-proposed', ...position(3), stage: 'merge', count: 2 },
  { ...base, type: 'edits-proposed', ...position(3), stage: 'rank', count: 0 },
  { ...base, type: 'step-finished', ...position(3), accepted: false, bestScore: 0.5, excludedItems: 0 },
  { ...base, type: 'step-started', ...position(4), itemIds: ['g', 'h'], learningRate: 2 },
  { ...base, type: 'edits-proposed', ...position(4), stage: 'rank', count: 1 },
  { ...base, type: 'step-finished', ...position(4), accepted: false, bestScore: 0.5, excludedItems: 0 },
  { ...base, type: 'step-started', ...position(5), itemIds: ['a', 'b'], learningRate: 2 },
  { ...base, type: 'edit-refused', ...position(5), stage: 'optimize', reason: 'it changes a protected region', excerpt: '- A kept note.' },
  { ...base, type: 'stage-failed', stage: 'merge', epoch: 1, globalStep: 5, reason: 'the reply was not JSON' },
  { ...base, type: 'step-finished', ...position(5), accepted: false, bestScore: 0.5, excludedItems: 0 },
  { ...base, type: 'epoch-finished', epoch: 1, bestScore: 0.5 },
  rolledOut('test', 't', 1, 2, 'process-crashed'),
  {
    ...base,
    type: 'run-finished',
    baselineScore: 0.25,
    bestScore: 0.5,
    acceptedCandidates: 1,
    rejectedCandidates: 0,
    bestSkillPath: '/runs/one/best_skill.md',
  },
];

function shown(mode: ProgressMode, sequence: readonly RunEvent[] = events, options: ProgressDisplayOptions = {}): string {
  let output = '';
  const display = createProgressDisplay(mode, { write: (text) => (output += text) }, { redrawEveryMs: 0, ...options });
  for (const event of sequence) display.onEvent(event);
  display.finish();
  return output;
}

/** Each state of a terminal's status line, as drawn. */
const statusLines = (output: string) =>
  output
    .split('\r\u001b[2K')
    .map((part) => part.split('\n').at(-1)!)
    .filter((part) => part.startsWith('epoch') || part.startsWith('\u001b'));

describe('the progress display', () => {
  it("shows a distributed run's jobs, queued and per worker running and done, on the status line of a terminal", () => {
    const counted: RunEvent = {
      ...base,
      type: 'rollout-jobs-counted',
      queued: 5,
      workers: [
        { worker: 'host-a:12', running: 4, done: 40 },
        { worker: 'host-b:7', running: 3, done: 38 },
      ],
    };
    const output = shown('terminal', [events[0]!, counted]);
    expect(statusLines(output).at(-1)).toContain('| jobs 5 queued, host-a:12 4 running 40 done, host-b:7 3 running 38 done');
    expect(shown('lines', [events[0]!, counted])).not.toContain('jobs');
  });

  it('shows the items excluded so far per split on the status line of a terminal', () => {
    expect(shown('terminal')).toContain('| excluded 1 train, 2 val');
  });

  it("shows each step's exclusions per split with their causes, and the totals at the end of an epoch, in line mode", () => {
    const output = shown('lines');
    expect(output).toContain('  step 1: excluded 1 train, 2 val (provider-timeout: 2, process-crashed: 1)\n');
    expect(output).toContain('  final test: excluded 1 test (process-crashed)\n');
    expect(output).toContain('Epoch 1 finished: best validation 50.0%; excluded so far (infrastructure): 1 train, 2 val\n');
    // Steps without exclusions say nothing of them.
    expect(output).not.toMatch(/step [2-5]: excluded/);
  });

  it('shows every step that ended without a gate decision, and why, in line mode and on a terminal', () => {
    for (const mode of ['lines', 'terminal'] as const) {
      const output = shown(mode);
      expect(output).toContain('  step 1: accepted (50.0% vs 25.0%) beats the incumbent\n');
      expect(output).toContain('  step 2: no edits proposed\n');
      expect(output).toContain('  step 3: no edits selected (learning rate 0)\n');
      expect(output).toContain('  step 5: the agent\'s change to "- A kept note." was refused: it changes a protected region\n');
      expect(output).toContain('  step 4: no candidate to gate (the selected edits left the skill unchanged)\n');
      expect(output).toContain('  step 5: stage merge failed: the reply was not JSON\n');
      expect(output).toContain('  step 5: no candidate to gate (a stage failed)\n');
      // One line per step's outcome: the gated step and the ones told already get no second one.
      expect(output.match(/step [1-3]: no candidate/g)).toBeNull();
    }
  });

  it('shows the elapsed time and the time left, from the pace of the finished steps, on the status line', () => {
    const timed: RunEvent[] = [
      runStarted,
      { ...base, timestamp: at(10), type: 'step-started', ...position(1), itemIds: ['a'], learningRate: 2 },
      { ...base, timestamp: at(70), type: 'step-finished', ...position(1), accepted: false, bestScore: 0.5, excludedItems: 0 },
      { ...base, timestamp: at(70), type: 'step-started', ...position(2), itemIds: ['b'], learningRate: 2 },
    ];
    let clock = Date.parse(at(5));
    let output = '';
    const display = createProgressDisplay('terminal', { write: (text) => (output += text) }, { now: () => clock, redrawEveryMs: 0 });
    display.onEvent(timed[0]!);
    display.onEvent(timed[1]!);
    // Before a step has finished there is no pace to go by: the elapsed time only.
    expect(statusLines(output).at(-1)).toMatch(/^epoch 1\/1 step 1\/5 \| 5s \| best/);
    clock = Date.parse(at(80));
    display.onEvent(timed[2]!);
    display.onEvent(timed[3]!);
    // 60 s a step, four steps left, 10 s since the last one finished: 4 × 60 − 10 = 230 s.
    expect(statusLines(output).at(-1)).toMatch(/^epoch 1\/1 step 2\/5 \| 1m20s, about 3m50s left \| best/);
    clock = Date.parse(at(400));
    display.onEvent({
      ...base,
      timestamp: at(400),
      type: 'usage-recorded',
      role: 'target',
      purpose: 'rollout',
      provider: 'sim',
      modelId: 'm',
      usage: { inputTokens: 1, outputTokens: 1 },
      costUsd: 0,
      cacheHit: false,
      latencyMs: 1,
    });
    // Slower than the pace so far: the estimate runs down to nothing, never below.
    expect(statusLines(output).at(-1)).toMatch(/\| 6m40s, about 0s left \|/);
    display.finish();
  });

  it('redraws the status line between events on a terminal, so the elapsed time moves, until it is finished', () => {
    jest.useFakeTimers();
    try {
      let clock = Date.parse(at(0));
      let output = '';
      const display = createProgressDisplay('terminal', { write: (text) => (output += text) }, { now: () => clock });
      jest.advanceTimersByTime(3000);
      // Nothing to show before the first event.
      expect(output).toBe('');
      display.onEvent(runStarted);
      clock = Date.parse(at(2));
      jest.advanceTimersByTime(1000);
      expect(statusLines(output).at(-1)).toMatch(/^epoch 0\/1 step 0\/5 \| 2s \|/);
      display.finish();
      const finished = output;
      jest.advanceTimersByTime(5000);
      expect(output).toBe(finished);
    } finally {
      jest.useRealTimers();
    }
  });

  it('estimates the time left of a recorded run from the time its first step took', () => {
    const recorded = readFileSync(path.join(__dirname, 'fixtures', 'format-1-run', 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => readRunEvent(JSON.parse(line)))
      .flatMap((reading) => (reading.kind === 'event' ? [reading.event] : []));
    const firstFinished = recorded.find((event) => event.type === 'step-finished')!;
    const started = recorded.find((event) => event.type === 'step-started')!;
    const clock = Date.parse(firstFinished.timestamp);
    const lines = statusLines(shown('terminal', recorded, { now: () => clock }));
    const stepMs = Date.parse(firstFinished.timestamp) - Date.parse(started.timestamp);
    expect(lines.some((status) => status.includes(`about ${Math.round(stepMs / 1000)}s left`))).toBe(true);
  });

  it('cuts the status line to the width of the terminal, colours included, so it never wraps', () => {
    for (const colours of [coloursFor({ isTTY: false }, {}), coloursFor({ isTTY: false }, { FORCE_COLOR: '1' })]) {
      const lines = statusLines(shown('terminal', events, { columns: () => 40, colours }));
      expect(lines.length).toBeGreaterThan(10);
      for (const status of lines) expect(visibleWidth(status)).toBeLessThanOrEqual(39);
      expect(lines.every((status) => status.replace(/\u001b\[[0-9;]*m/g, '').endsWith('…'))).toBe(true);
    }
    const wide = statusLines(shown('terminal', events, { columns: () => 400 }));
    expect(wide.at(-1)).toMatch(/\| excluded 1 train, 2 val, 1 test$/);
  });

  it('colours decisions, failures and exclusions only when given colours', () => {
    const plain = shown('lines');
    expect(plain).not.toContain('\u001b[');
    const coloured = shown('lines', events, { colours: coloursFor({ isTTY: false }, { FORCE_COLOR: '1' }) });
    expect(coloured).toContain('\u001b[32maccepted\u001b[39m');
    expect(coloured).toContain('\u001b[31m  step 5: stage merge failed');
    expect(coloured).toContain('\u001b[33m  step 1: excluded 1 train, 2 val');
    expect(coloured.replace(/\u001b\[[0-9;]*m/g, '')).toBe(plain);
  });

  it('prints each event as one JSON line and nothing else with --json', () => {
    const lines = shown('json').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as RunEvent).type)).toEqual(events.map((event) => event.type));
  });
});
