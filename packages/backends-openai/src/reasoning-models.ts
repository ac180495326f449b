import type { ReasoningEffort } from '@skillopt/contract';

/**
 * OpenAI's reasoning models take `reasoning_effort` and `max_completion_tokens` and refuse
 * `temperature`; other chat models refuse `reasoning_effort`. They are recognised by name: the
 * o-series (o1, o3, o4-mini, …) and the GPT-5 family (gpt-5, gpt-5-mini, gpt-5.1, gpt-5.5, …),
 * but not `gpt-5-chat-latest`, a chat model. `reasoning_model: true|false` overrides the guess.
 */
export function isOpenAiReasoningModel(modelId: string): boolean {
  const name = modelId.trim().toLowerCase().replace(/^.*\//, '');
  if (/^o\d+(-|$)/.test(name)) return true;
  if (/^gpt-5(\.\d+)?(-|$)/.test(name)) return !/-chat(-|$)/.test(name);
  return false;
}

/**
 * The effort to send for `effort` on `modelId`, adjusted to what the model accepts: the o-series
 * takes low/medium/high only (none and minimal become low); the first GPT-5 models (gpt-5,
 * gpt-5-mini, gpt-5-nano) take minimal but not none (none becomes minimal). Newer models get the
 * effort as asked. (The original sent `none` as is, which real models refuse; upstream-backends
 * §1.12.4.)
 */
export function wireReasoningEffort(modelId: string, effort: ReasoningEffort): ReasoningEffort {
  const name = modelId.trim().toLowerCase().replace(/^.*\//, '');
  if (/^o\d+(-|$)/.test(name)) return effort === 'none' || effort === 'minimal' ? 'low' : effort;
  if (/^gpt-5(-|$)/.test(name)) return effort === 'none' ? 'minimal' : effort;
  return effort;
}
