import { FIRST_PARTY_PACKAGES } from '@skillopt/core';

/** The backends a night can be given: SkillOpt's published ones, the simulated `sim` (the default) first. */
export const PUBLISHED_BACKENDS: readonly string[] = FIRST_PARTY_PACKAGES.backend.filter((known) => known.published).map((known) => known.id);
