import { randomBytes } from 'node:crypto';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';

/** Where a fixed token comes from, so a bookmarked URL keeps working across restarts. */
export const DASHBOARD_TOKEN_VARIABLE = 'SKILLOPT_DASHBOARD_TOKEN';

const SHORTEST_TOKEN = 16;

/** The token a dashboard on a non-loopback address asks for: the environment's, else a fresh random one. */
export function dashboardTokenOf(environment: NodeJS.ProcessEnv): string {
  const given = environment[DASHBOARD_TOKEN_VARIABLE]?.trim();
  if (given === undefined || given === '') return randomBytes(24).toString('base64url');
  if (given.length < SHORTEST_TOKEN)
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `${DASHBOARD_TOKEN_VARIABLE} is shorter than ${SHORTEST_TOKEN} characters: anyone on the network could guess it. Set a longer one, or unset it for a random token`,
    });
  return given;
}
