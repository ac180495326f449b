import { type CallWarning, ERROR_CODES, type GenerateRequest, readGenerateRequest, SkillOptError } from '@skillopt/contract';

/** A generate call as a chat model works from it. */
export interface AcceptedGenerateRequest {
  /** The request with the fields the contract does not know left out. */
  request: GenerateRequest;
  /** Those fields, as `unknown-field` warnings for the result. */
  warnings: CallWarning[];
}

/**
 * Reads a generate call the way every chat model must (the contract's `readGenerateRequest`):
 * fields it does not know become warnings, never an error; a field of the wrong type is a bug of
 * the caller, thrown as an internal error that names the model (`modelName`, e.g. `codex gpt-5`).
 */
export function acceptGenerateRequest(received: GenerateRequest, modelName: string): AcceptedGenerateRequest {
  const reading = readGenerateRequest(received);
  if (!reading.ok)
    throw new SkillOptError({
      code: ERROR_CODES.dataInvalid,
      category: 'internal',
      message: `${modelName}: an invalid generate request: ${reading.problems.join('; ')}`,
    });
  return { request: reading.request, warnings: reading.warnings };
}
