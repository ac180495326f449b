import { z } from 'zod';

/**
 * What a chat model or an agent runner can honour. Every entry is optional: `true` means it can,
 * `false` that it cannot, and an absent entry that the implementation does not say. An env that
 * needs one (DocVQA needs images) refuses a target that declares `false` before the run starts.
 */
export const MODEL_CAPABILITY_NAMES = ['images', 'tools', 'jsonSchemaOutput', 'streaming', 'reportedUsage'] as const;
export type ModelCapabilityName = (typeof MODEL_CAPABILITY_NAMES)[number];

export const modelCapabilitiesSchema = z.strictObject({
  /** Reads image parts of user messages. */
  images: z.boolean().optional(),
  /** Calls the tools a request defines and returns their calls. */
  tools: z.boolean().optional(),
  /** Holds a reply to a `responseFormat` JSON Schema (not merely "answer in JSON"). */
  jsonSchemaOutput: z.boolean().optional(),
  /** Can stream its reply. */
  streaming: z.boolean().optional(),
  /** Reports real token counts; when false, usage is estimated from text length and marked so. */
  reportedUsage: z.boolean().optional(),
  /** Awaits the request's `onDispatch` before each request leaves the process (after its own queues). */
  announcesDispatch: z.boolean().optional(),
  /** Answers out of band, keyed by the request's `requestKey` (the handoff backend): core sets the key on a rollout's calls. */
  keyedRequests: z.boolean().optional(),
  /** Runs its harness inside an OS sandbox when a request asks (`AgentRunRequest.isolation: 'sandbox'`). */
  sandboxedRuns: z.boolean().optional(),
});

export interface ModelCapabilities {
  images?: boolean | undefined;
  tools?: boolean | undefined;
  jsonSchemaOutput?: boolean | undefined;
  streaming?: boolean | undefined;
  reportedUsage?: boolean | undefined;
  announcesDispatch?: boolean | undefined;
  keyedRequests?: boolean | undefined;
  sandboxedRuns?: boolean | undefined;
}

/** The capabilities in `required` that `declared` says are missing (absent ones are not counted). */
export function missingCapabilities(required: readonly ModelCapabilityName[], declared: ModelCapabilities | undefined): ModelCapabilityName[] {
  if (declared === undefined) return [];
  return required.filter((name) => declared[name] === false);
}
