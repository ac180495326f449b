/** The original's `--backend` and `--model` flags, as Sleep's commands take them. */
export interface ModelFlags {
  backend?: string | undefined;
  model?: string | undefined;
}

/**
 * `--backend` and `--model` as `--set` values: one backend (and model) for both roles, the target
 * that replays and the optimizer that mines, judges by rubric and proposes rules. They come before
 * the user's own `--set` values, which can still split the roles. The name is resolved like any
 * backend's: a misspelt one is an error naming the nearest, never a silent stand-in.
 */
export function modelFlagOverrides(flags: ModelFlags): string[] {
  const overrides: string[] = [];
  if (flags.backend !== undefined) overrides.push(`model.target_backend=${flags.backend}`, `model.optimizer_backend=${flags.backend}`);
  if (flags.model !== undefined) overrides.push(`model.target=${flags.model}`, `model.optimizer=${flags.model}`);
  return overrides;
}
