import { redactSecretText } from '@skillopt/contract';

/** The URL as it may appear in a message: credentials and key-like query parameters cut out. */
export function displayedSearchUrl(url: string): string {
  return redactSecretText(url);
}
