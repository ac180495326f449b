/**
 * ALFWorld's six task types, in the names its game folders start with, and the type of a game
 * whose path names none of them.
 */
export const ALFWORLD_TASK_TYPES = [
  'pick_and_place',
  'pick_two_obj_and_place',
  'look_at_obj_in_light',
  'pick_heat_then_place_in_recep',
  'pick_cool_then_place_in_recep',
  'pick_clean_then_place_in_recep',
  'other',
] as const;
export type AlfWorldTaskType = (typeof ALFWORLD_TASK_TYPES)[number];

// Longest first: `pick_and_place` is also the start of nothing else, but `pick_two_obj_and_place`
// must not be read as `pick_and_place` by a looser match.
const BY_LENGTH = [...ALFWORLD_TASK_TYPES].filter((type) => type !== 'other').sort((left, right) => right.length - left.length);

/**
 * The task type a game file's path shows (`…/pick_heat_then_place_in_recep-Apple-None-…/…`). The
 * folder `pick_and_place_simple-…` is `pick_and_place`, as in the original.
 */
export function taskTypeOfGamePath(gamefile: string): AlfWorldTaskType {
  return BY_LENGTH.find((type) => gamefile.includes(type)) ?? 'other';
}

/**
 * A task type as an item writes it (`task_type`: `pick_and_place_simple` in the original's
 * manifest is `pick_and_place`), or undefined when it names none of the six (nor `other`).
 */
export function knownTaskType(value: string): AlfWorldTaskType | undefined {
  if (value === 'other') return 'other';
  const type = taskTypeOfGamePath(value);
  return type === 'other' ? undefined : type;
}
