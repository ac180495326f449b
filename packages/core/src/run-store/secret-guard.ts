import { redactSecrets, secretEnvironmentValues as secretValuesOf } from '@skillopt/contract';

/**
 * The last guard before anything reaches the run directory: every JSON artifact and every line
 * of an append-only file passes it (writeJsonAtomic, the JSON Lines appender). The config loader
 * redacts secrets already; this also catches a value copied elsewhere (a key pasted into a URL,
 * a provider's error text quoting a credential): besides the contract's redaction, every value of
 * a secret-looking environment variable is cut out wherever it appears.
 */
export function redactArtifactSecrets(value: unknown, knownSecrets: readonly string[] = secretEnvironmentValues()): unknown {
  // A JSON round trip first, so dates and other toJSON values look as they will in the file.
  const serialised = value === undefined ? undefined : JSON.stringify(value);
  if (serialised === undefined) return undefined;
  return redactSecrets(JSON.parse(serialised) as unknown, knownSecrets);
}

/** The values of this process's secret-looking environment variables (the contract's rule), longest first. */
export function secretEnvironmentValues(environment: NodeJS.ProcessEnv = process.env): string[] {
  return secretValuesOf(environment);
}
