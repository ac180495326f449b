import { isSupportedSpecificationVersion, type ContractInterface } from './specification-version.js';

/** The object's fields, when it implements a version of `contractInterface` this release defines. */
export function supportedImplementationFields(value: unknown, contractInterface: ContractInterface): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const fields = value as Record<string, unknown>;
  return isSupportedSpecificationVersion(contractInterface, fields.specificationVersion) ? fields : undefined;
}

/** A chat model and an agent runner both name their provider and model and have one entry method. */
export function isModelImplementation(value: unknown, contractInterface: 'chat-model' | 'agent-runner'): boolean {
  const fields = supportedImplementationFields(value, contractInterface);
  const entryMethod = contractInterface === 'chat-model' ? 'generate' : 'run';
  return fields !== undefined && typeof fields.provider === 'string' && typeof fields.modelId === 'string' && typeof fields[entryMethod] === 'function';
}
