import { ERROR_CODES, SkillOptError, type ChatModel, type Target } from '@skillopt/contract';

/**
 * The chat model of a rollout's target, for an env that drives a chat model: an agent harness as
 * the target is the run's configuration mistake, reported as such (`config-invalid`), never scored.
 */
export function chatTargetModel(target: Target, environmentId: string, needs = 'a chat model'): ChatModel {
  if (target.kind === 'chat') return target.model;
  throw new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    message: `${environmentId} drives ${needs}; this run gave it an agent harness as the target`,
    details: { targetKind: target.kind },
  });
}
