import type { Target } from '@skillopt/contract';

/**
 * The model part of a rollout cache key. The provider is part of it because two providers may
 * serve models of the same name (a simulated `gpt-5` must never answer for the real one), and the
 * target kind because the same model driven as a chat model and inside an agent harness behaves
 * differently.
 */
export function targetModelId(target: Target): string {
  const implementation = target.kind === 'chat' ? target.model : target.runner;
  return `${target.kind}:${implementation.provider}/${implementation.modelId}`;
}
