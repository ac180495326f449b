import { z } from 'zod';

/**
 * Something a model or runner could not honour in a call it still answered: a request field it
 * does not know, a setting its provider refuses (a temperature for a reasoning model), a JSON
 * Schema it can only ask for in words. Core writes each into the ledger and the events, so what a
 * provider ignored is never silent.
 */
export const CALL_WARNING_TYPES = ['unknown-field', 'unsupported-setting', 'other'] as const;
export type CallWarningType = (typeof CALL_WARNING_TYPES)[number];

export const callWarningSchema = z.strictObject({
  type: z.enum(CALL_WARNING_TYPES),
  /** The request field concerned, as a dotted path (`temperature`, `responseFormat.schema`). */
  field: z.string().optional(),
  message: z.string().min(1),
});

export interface CallWarning {
  type: CallWarningType;
  field?: string | undefined;
  message: string;
}
