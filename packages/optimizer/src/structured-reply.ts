import { addUsage, EMPTY_USAGE, OPTIMIZER_PROMPT_STAGES, type ChatModel, type Message, type OptimizerPrompt, type Usage } from '@skillopt/contract';
import type { z } from 'zod';
import { looksLikeJsonStart, scanJsonCandidates } from './json-candidates.js';
import { syntaxRepairCandidates } from './json-syntax-repair.js';
import { stripReasoningAndFences } from './reply-cleaning.js';
import { repairedRepliesField, type StageResult } from './stage-result.js';
import { truncatedJsonRepairs } from './truncated-json-repair.js';

export type ParsedReply<Value> = { ok: true; value: Value; repaired: boolean } | { ok: false; reason: string };

/** How many balanced spans are tried before giving up: bounds the work on adversarial replies. */
const MAX_SPANS_TRIED = 200;
/** How many cut-off openers are tried for a truncation repair. */
const MAX_REPAIR_STARTS = 3;
/** How many candidates have their syntax repaired: each repair reads its whole candidate again. */
const MAX_SYNTAX_REPAIRS = 8;

function describeIssues(error: z.ZodError): string {
  const lines = error.issues.slice(0, 8).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(top level)';
    return `${path}: ${issue.message}`;
  });
  const more = error.issues.length > 8 ? `; and ${error.issues.length - 8} more` : '';
  return `${lines.join('; ')}${more}`;
}

function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * Reads a stage's JSON value out of a model reply, as a pure function of the text:
 * 1. reasoning blocks and fence lines are removed;
 * 2. every balanced object or array is tried in order of position (outer before inner) until one
 *    parses and passes `schema`, so prose braces before or after the JSON, and a wrapper object
 *    around it, do no harm;
 * 3. failing that, a value cut off at the end is repaired (see `truncatedJsonRepairs`) and checked;
 * 4. failing that, the slips models make in JSON (trailing commas, single quotes, unquoted keys,
 *    comments, missing closing brackets) are repaired (see `syntaxRepairCandidates`) and checked,
 *    so a slip costs no re-ask;
 * 5. otherwise the reason says what was wrong, in words fit to send back to the model.
 * Every repaired value still has to pass `schema`, and `repaired` says that one was needed.
 */
export function parseStructuredReply<Value>(text: string, schema: z.ZodType<Value>): ParsedReply<Value> {
  const cleaned = stripReasoningAndFences(text);
  const scan = scanJsonCandidates(cleaned);
  let firstSchemaError: string | undefined;
  let largestParsedLength = -1;
  for (const span of scan.spans.slice(0, MAX_SPANS_TRIED)) {
    const parsed = tryParseJson(cleaned.slice(span.start, span.end));
    if (!parsed.ok) continue;
    const validated = schema.safeParse(parsed.value);
    if (validated.success) return { ok: true, value: validated.data, repaired: false };
    // The outermost JSON value is the one the model meant; its problems are the ones to report.
    if (span.end - span.start > largestParsedLength) {
      largestParsedLength = span.end - span.start;
      firstSchemaError = describeIssues(validated.error);
    }
  }
  const repairStarts = scan.unclosedOpeners.filter((position) => looksLikeJsonStart(cleaned, position)).slice(0, MAX_REPAIR_STARTS);
  for (const start of repairStarts) {
    for (const candidate of truncatedJsonRepairs(cleaned.slice(start))) {
      const parsed = tryParseJson(candidate);
      if (!parsed.ok) continue;
      const validated = schema.safeParse(parsed.value);
      if (validated.success) return { ok: true, value: validated.data, repaired: true };
    }
  }
  for (const candidate of syntaxRepairCandidates(cleaned, scan, MAX_SYNTAX_REPAIRS)) {
    const parsed = tryParseJson(candidate);
    if (!parsed.ok) continue;
    const validated = schema.safeParse(parsed.value);
    if (validated.success) return { ok: true, value: validated.data, repaired: true };
    firstSchemaError ??= describeIssues(validated.error);
  }
  if (firstSchemaError !== undefined) return { ok: false, reason: `the JSON does not have the required shape: ${firstSchemaError}` };
  if (cleaned.trim() === '') return { ok: false, reason: 'the reply was empty' };
  if (repairStarts.length > 0) return { ok: false, reason: 'the JSON was cut off and could not be repaired' };
  return { ok: false, reason: 'no JSON value was found in the reply' };
}

export interface StructuredRequest<Value> {
  model: ChatModel;
  signal: AbortSignal;
  /** The prompt template the messages were rendered from; its stage is the call's purpose. */
  prompt: OptimizerPrompt;
  messages: Message[];
  schema: z.ZodType<Value>;
  maxOutputTokens?: number;
  temperature?: number;
}

/** The extra value a successful structured call reports: whether the reply's JSON had to be repaired. */
export interface StructuredValue<Value> {
  value: Value;
  repaired: boolean;
}

/**
 * One stage's model call with its reply read as JSON. A reply that cannot be used is sent back
 * ONCE with the problem appended to the conversation; if the second reply fails too, the result is
 * an explicit stage failure. Provider errors (and aborts) are not caught: they are thrown to core,
 * which owns retries and stopping.
 */
export async function requestStructuredReply<Value>(request: StructuredRequest<Value>): Promise<StageResult<StructuredValue<Value>>> {
  const messages = [...request.messages];
  let usage: Usage = EMPTY_USAGE;
  let lastReason = '';
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    request.signal.throwIfAborted();
    const reply = await request.model.generate({
      messages,
      purpose: OPTIMIZER_PROMPT_STAGES[request.prompt],
      signal: request.signal,
      responseFormat: { type: 'json', name: request.prompt },
      ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    });
    usage = addUsage(usage, reply.usage);
    const parsed = parseStructuredReply(reply.text, request.schema);
    if (parsed.ok)
      return {
        ok: true,
        value: { value: parsed.value, repaired: parsed.repaired },
        attempts: attempt,
        usage,
        ...repairedRepliesField(parsed.repaired ? 1 : 0),
      };
    lastReason = reply.finishReason === 'length' ? `${parsed.reason} (the reply hit the output-token limit)` : parsed.reason;
    messages.push({ role: 'assistant', content: reply.text });
    messages.push({
      role: 'user',
      content:
        `Your reply could not be used: ${lastReason}.\n` +
        'Reply again with only the JSON value the instructions ask for: no prose, no code fences, ' +
        'every required field present, and short enough to finish.',
    });
  }
  return {
    ok: false,
    stage: OPTIMIZER_PROMPT_STAGES[request.prompt],
    prompt: request.prompt,
    reason: `no usable reply after 2 attempts: ${lastReason}`,
    attempts: 2,
    usage,
  };
}
