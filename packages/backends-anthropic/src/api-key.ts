import { ERROR_CODES, ProviderError } from '@skillopt/contract';
import { ANTHROPIC_API_KEY_VARIABLE, ANTHROPIC_PROVIDER } from './provider.js';

/** The process environment, or a stand-in for it (tests, embedding applications). */
export type EnvironmentVariables = Readonly<Record<string, string | undefined>>;

/**
 * The API key from ANTHROPIC_API_KEY, the only place it is read from (never a config file).
 * A missing key is a non-retryable `provider-authentication` error that names the variable and
 * never echoes anything of a value.
 */
export function readApiKey(environment: EnvironmentVariables): string {
  const key = environment[ANTHROPIC_API_KEY_VARIABLE]?.trim();
  if (key === undefined || key === '')
    throw new ProviderError({
      code: ERROR_CODES.providerAuthentication,
      provider: ANTHROPIC_PROVIDER,
      retryable: false,
      message: `${ANTHROPIC_API_KEY_VARIABLE} is not set: export your Anthropic API key in that variable (any non-empty value works against \`skillopt sim serve\`)`,
      details: { variable: ANTHROPIC_API_KEY_VARIABLE },
    });
  return key;
}
