/**
 * The original accepted several spellings for three enumerated settings (upstream-core §7.5);
 * configs written for it use them, so they are accepted here too and read as the canonical value.
 * Unlike the original, an unknown spelling is an error rather than a silent fallback to the
 * default (upstream-core §10.18: an unknown `skill_update_mode` silently became `patch`).
 */

export const SKILL_UPDATE_MODES = ['patch', 'rewrite_from_suggestions', 'full_rewrite_minibatch'] as const;
export const LR_CONTROL_MODES = ['fixed', 'autonomous', 'none'] as const;
export const LONGITUDINAL_PAIR_POLICIES = ['mixed', 'changed', 'unchanged'] as const;

const SKILL_UPDATE_MODE_ALIASES: Readonly<Record<string, (typeof SKILL_UPDATE_MODES)[number]>> = {
  patch: 'patch',
  edits: 'patch',
  rewrite: 'rewrite_from_suggestions',
  rewrite_from_suggestions: 'rewrite_from_suggestions',
  suggestions: 'rewrite_from_suggestions',
  rewrite_suggestions: 'rewrite_from_suggestions',
  full_rewrite: 'full_rewrite_minibatch',
  full_rewrite_minibatch: 'full_rewrite_minibatch',
  minibatch_full_rewrite: 'full_rewrite_minibatch',
  skill_rewrite_minibatch: 'full_rewrite_minibatch',
};

const LR_CONTROL_MODE_ALIASES: Readonly<Record<string, (typeof LR_CONTROL_MODES)[number]>> = {
  fixed: 'fixed',
  manual: 'fixed',
  scheduler: 'fixed',
  scheduled: 'fixed',
  autonomous: 'autonomous',
  auto: 'autonomous',
  optimizer: 'autonomous',
  none: 'none',
  off: 'none',
  no_lr: 'none',
};

const PAIR_POLICY_ALIASES: Readonly<Record<string, (typeof LONGITUDINAL_PAIR_POLICIES)[number]>> = {
  mixed: 'mixed',
  default: 'mixed',
  random: 'mixed',
  all: 'mixed',
  changed: 'changed',
  change: 'changed',
  delta: 'changed',
  '10_01': 'changed',
  '01_10': 'changed',
  unchanged: 'unchanged',
  stable: 'unchanged',
  same: 'unchanged',
  '00_11': 'unchanged',
};

/** Every accepted spelling of each setting, for the documentation. */
export const VALUE_ALIASES = {
  skill_update_mode: SKILL_UPDATE_MODE_ALIASES,
  lr_control_mode: LR_CONTROL_MODE_ALIASES,
  longitudinal_pair_policy: PAIR_POLICY_ALIASES,
} as const;

/**
 * A zod preprocessor: trims and lower-cases a string and maps an alias to its canonical value;
 * anything else is handed on unchanged so the enum reports it with the valid choices.
 */
function canonicalAlias(aliases: Readonly<Record<string, string>>): (value: unknown) => unknown {
  return (value) => {
    if (typeof value !== 'string') return value;
    const spelled = value.trim().toLowerCase().replace(/-/g, '_');
    return Object.hasOwn(aliases, spelled) ? aliases[spelled] : value;
  };
}

export const canonicalSkillUpdateMode = canonicalAlias(SKILL_UPDATE_MODE_ALIASES);
export const canonicalLrControlMode = canonicalAlias(LR_CONTROL_MODE_ALIASES);
export const canonicalPairPolicy = canonicalAlias(PAIR_POLICY_ALIASES);
