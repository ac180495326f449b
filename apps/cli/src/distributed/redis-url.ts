import { ERROR_CODES, SkillOptError } from '@skillopt/contract';

/** The variable a Redis URL with credentials comes from: never a flag, which ends up in shell history and process lists. */
export const REDIS_URL_VARIABLE = 'SKILLOPT_REDIS_URL';

/**
 * The Redis URL of a distributed run: `--redis-url` (without credentials), else
 * SKILLOPT_REDIS_URL (which may carry them). A flag with credentials is refused, pointing at the
 * variable; no message ever shows the credentials.
 */
export function redisUrlOf(flag: string | undefined, environment: NodeJS.ProcessEnv = process.env): string {
  if (flag !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(flag);
    } catch {
      throw userError(`--redis-url is not a URL: give one like redis://host:6379`);
    }
    if (parsed.username !== '' || parsed.password !== '')
      throw userError(
        `--redis-url carries credentials, which would show in shell history and process lists; put the URL in the environment variable ${REDIS_URL_VARIABLE} instead`,
      );
    return flag;
  }
  const fromEnvironment = environment[REDIS_URL_VARIABLE];
  if (fromEnvironment !== undefined && fromEnvironment !== '') return fromEnvironment;
  throw userError(`no Redis to use: give --redis-url redis://host:6379, or set ${REDIS_URL_VARIABLE} (which may carry credentials)`);
}

function userError(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message });
}
