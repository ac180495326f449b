import type { CredentialVariable } from '@skillopt/contract';

/**
 * The credentials skillopt's backends read from the environment. Only whether each is set is ever
 * reported: a value is never printed, logged or put in JSON, not even in part.
 */
export interface CredentialPresence {
  name: string;
  usedBy: string | undefined;
  present: boolean;
}

/**
 * Which credentials are set (non-empty): the variables the installed backends declare they read
 * (their manifests' `credentials`, from the same tables their code reads keys with), then any other
 * *_API_KEY that is set.
 */
export function credentialPresence(declared: readonly CredentialVariable[], environment: NodeJS.ProcessEnv = process.env): CredentialPresence[] {
  const isSet = (name: string) => typeof environment[name] === 'string' && (environment[name] as string).trim() !== '';
  const known = new Map<string, string>();
  for (const variable of declared) if (!known.has(variable.name)) known.set(variable.name, variable.usedBy);
  const others = Object.keys(environment)
    .filter((name) => !known.has(name) && /_API_KEY$/.test(name) && isSet(name))
    .sort()
    .map((name) => ({ name, usedBy: undefined, present: true }));
  return [...[...known].map(([name, usedBy]) => ({ name, usedBy, present: isSet(name) })), ...others];
}
