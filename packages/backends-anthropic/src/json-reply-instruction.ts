import type { ResponseFormat } from '@skillopt/contract';

/**
 * What the model is told when a call asks for `responseFormat: {type: 'json'}`. The Messages API
 * is asked in words, not with a structured-output parameter (which not every Claude model
 * accepts), so the reply is text that should be JSON: parsing and validating it is the caller's
 * job, as with every backend (the optimizer's robust JSON reader re-asks once on a bad reply).
 */
export function jsonReplyInstruction(format: ResponseFormat | undefined): string | undefined {
  if (format === undefined || format.type !== 'json') return undefined;
  const lines = ['Reply with a single JSON value and nothing else: no prose before or after it, no Markdown code fence.'];
  if (format.schema !== undefined) lines.push(`It must match this JSON Schema${format.name ? ` ("${format.name}")` : ''}:`, JSON.stringify(format.schema));
  return lines.join('\n');
}
