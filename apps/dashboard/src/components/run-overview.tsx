import type { RunReport } from '../api/api-types.js';
import { formatCost, formatCount, formatDuration, formatScore, formatTimestamp } from '../format/format.js';
import { ModelName } from './model-name.js';
import { numberAttributes } from './number-attributes.js';

/** What ran and how it went, in one list of facts. */
export function RunOverview({ report }: { report: RunReport }) {
  const { run, usage } = report;
  return (
    <dl className="facts">
      <div>
        <dt>Environment</dt>
        <dd data-testid="run-environment">{run.environment ?? '—'}</dd>
      </div>
      <div>
        <dt>Target model</dt>
        <dd data-testid="run-target-model">
          <ModelName model={run.targetModel} simulated={run.simulatedRoles.includes('target')} />
        </dd>
      </div>
      <div>
        <dt>Optimizer model</dt>
        <dd data-testid="run-optimizer-model">
          <ModelName model={run.optimizerModel} simulated={run.simulatedRoles.includes('optimizer')} />
        </dd>
      </div>
      <div>
        <dt>Steps</dt>
        <dd>
          <span {...numberAttributes('run-steps-done', run.stepsDone)}>{run.stepsDone}</span> of{' '}
          <span {...numberAttributes('run-steps-total', run.stepsTotal)}>{run.stepsTotal ?? '—'}</span>
        </dd>
      </div>
      <div>
        <dt>Validation score, initial skill</dt>
        <dd {...numberAttributes('run-initial-score', run.validation.initial)}>{formatScore(run.validation.initial)}</dd>
      </div>
      <div>
        <dt>Validation score, best skill</dt>
        <dd {...numberAttributes('run-best-score', run.validation.best)}>{formatScore(run.validation.best)}</dd>
      </div>
      <div>
        <dt>Test score, initial → best skill</dt>
        <dd>
          <span {...numberAttributes('run-test-initial', run.test?.initial ?? null)}>{formatScore(run.test?.initial)}</span> →{' '}
          <span {...numberAttributes('run-test-best', run.test?.best ?? null)}>{formatScore(run.test?.best)}</span>
        </dd>
      </div>
      <div>
        <dt>Cost</dt>
        <dd {...numberAttributes('run-cost-total', usage.overall.costUsd)}>{formatCost(usage.overall.costUsd, usage.overall.unpricedCalls)}</dd>
      </div>
      <div>
        <dt>Calls</dt>
        <dd>
          <span {...numberAttributes('run-calls', usage.overall.calls)}>{formatCount(usage.overall.calls)}</span>, and{' '}
          <span {...numberAttributes('run-cache-hits', usage.overall.cacheHits)}>{formatCount(usage.overall.cacheHits)}</span> answered from a cache
        </dd>
      </div>
      <div>
        <dt>Latency slots (critical path)</dt>
        <dd {...numberAttributes('run-latency-slots', report.latencySlots)}>{formatCount(report.latencySlots)}</dd>
      </div>
      <div>
        <dt>Duration</dt>
        <dd {...numberAttributes('run-duration', run.durationMs)}>{formatDuration(run.durationMs)}</dd>
      </div>
      <div>
        <dt>Started</dt>
        <dd>{run.startedAt === null ? '—' : <time dateTime={run.startedAt}>{formatTimestamp(run.startedAt)}</time>}</dd>
      </div>
      <div>
        <dt>Last event</dt>
        <dd>{run.updatedAt === null ? '—' : <time dateTime={run.updatedAt}>{formatTimestamp(run.updatedAt)}</time>}</dd>
      </div>
    </dl>
  );
}
