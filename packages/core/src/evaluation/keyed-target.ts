import type { Target } from '@skillopt/contract';

/**
 * The target of one rollout attempt, its calls keyed `<base>/<n>` (n counts the attempt's calls
 * from 0), for a target that answers out of band (`capabilities.keyedRequests`, the handoff
 * backend): the same rollout asks the same keys on every resume, and K samples of an item are K
 * keys. Any other target is handed over as it is.
 */
export function withRequestKeys(target: Target, base: string): Target {
  let calls = 0;
  const nextKey = () => `${base}/${calls++}`;
  if (target.kind === 'chat') {
    const { model } = target;
    if (model.capabilities?.keyedRequests !== true) return target;
    return { kind: 'chat', model: { ...model, generate: (request) => model.generate({ ...request, requestKey: nextKey() }) } };
  }
  const { runner } = target;
  if (runner.capabilities?.keyedRequests !== true) return target;
  return { kind: 'agent', runner: { ...runner, run: (request) => runner.run({ ...request, requestKey: nextKey() }) } };
}
