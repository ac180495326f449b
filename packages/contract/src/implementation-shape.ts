import { SUPPORTED_SPECIFICATION_VERSIONS } from './specification-version.js';

/** The object's fields, when it is a contract implementation of a supported specification version. */
export function supportedImplementationFields(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const fields = value as Record<string, unknown>;
  const version = fields.specificationVersion;
  return typeof version === 'string' && SUPPORTED_SPECIFICATION_VERSIONS.includes(version) ? fields : undefined;
}

/** A chat model and an agent runner both name their provider and model and have one entry method. */
export function isModelImplementation(value: unknown, entryMethod: 'generate' | 'run'): boolean {
  const fields = supportedImplementationFields(value);
  return (
    fields !== undefined &&
    typeof fields.provider === 'string' &&
    typeof fields.modelId === 'string' &&
    typeof fields[entryMethod] === 'function'
  );
}
