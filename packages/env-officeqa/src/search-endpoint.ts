import { redactSecretText } from '@skillopt/contract';

/** What an environment variable's name may look like: `search_auth_env` names one, it never holds the token. */
const ENVIRONMENT_VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The URL as it may appear in a message: credentials and key-like query parameters cut out. */
export function displayedSearchUrl(url: string): string {
  return redactSecretText(url);
}

/**
 * Why `search_api_url` cannot be used, or undefined when it can: it must be an http(s) URL, and
 * it must not carry credentials (`https://user:password@host/…`), which would end up in the run's
 * saved config; the token belongs in the variable `search_auth_env` names.
 */
export function searchUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${displayedSearchUrl(url)}" is not a URL; give the http(s) address of your search endpoint`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `"${displayedSearchUrl(url)}" must be an http:// or https:// URL`;
  if (parsed.username !== '' || parsed.password !== '')
    return `"${displayedSearchUrl(url)}" holds credentials; remove them from the URL and put the token in the environment variable that search_auth_env names`;
  return undefined;
}

/** Why `search_auth_env` is not a variable's name, or undefined. The value is not repeated: it may be the token itself. */
export function authVariableProblem(name: string): string | undefined {
  if (name === '' || ENVIRONMENT_VARIABLE_NAME.test(name)) return undefined;
  return 'must be the name of an environment variable (letters, digits and _), the variable that holds the token; the value given is not shown, in case it is the token itself';
}
