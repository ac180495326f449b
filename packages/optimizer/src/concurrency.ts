// The optimizer's concurrent model calls go through env-kit's bounded map, whose results come back
// in input order whatever order the calls finish in: that is what makes every stage's output a
// pure function of its inputs and the model's replies.
export { mapConcurrent } from '@skillopt/env-kit';

/** How many optimizer calls of one stage run at once unless the caller says otherwise. */
export const DEFAULT_OPTIMIZER_CONCURRENCY = 4;
