import assert from 'node:assert/strict';
import { generateResultSchema, SkillOptError, type ChatModel, type GenerateRequest } from '@skillopt/contract';
import {
  assertDeclarations,
  assertNoSecret,
  assertProbeWarning,
  assertRetryableProviderError,
  assertUsage,
  describeError,
  PROBE_FIELD,
  rejectionWithin,
  validResultOf,
  type ConformanceContext,
} from './check-support.js';

/** A chat model for one check, built for the situation the check needs. */
export type ChatModelFactory = (context: ChatModelConformanceContext) => ChatModel | Promise<ChatModel>;

export interface ChatModelConformanceContext extends ConformanceContext {
  /** The time limit to give each attempt of a stalled model, in ms; configure one attempt only. */
  readonly timeoutMs: number;
}

/** How to build the chat model of each situation. */
export interface ChatModelConformanceOptions {
  /** A model whose provider answers every request. */
  createAnsweringModel: ChatModelFactory;
  /** A model whose provider never answers: one attempt, with `context.timeoutMs` as its limit. */
  createStalledModel: ChatModelFactory;
  /**
   * A model whose provider refuses its credential (HTTP 401, say) with an error text that quotes
   * `context.secret` back. Leave it out for a backend without credentials (a simulator).
   */
  createRejectedModel?: ChatModelFactory;
  /** A model whose provider answers without token counts. Leave it out when that cannot happen. */
  createModelWithoutReportedUsage?: ChatModelFactory;
  /** The stalled model's limit; default 300 ms. */
  timeoutMs?: number;
  /** How long an aborted or timed-out call may take to settle beyond its moment; default 2000 ms. */
  settleGraceMs?: number;
}

export interface NamedChatModelCheck {
  name: string;
  /** Whether the check applies, given what the options provide. */
  appliesTo(options: ChatModelConformanceOptions): boolean;
  run(options: ChatModelConformanceOptions, context: ChatModelConformanceContext): Promise<void>;
}

const PROBE_REQUEST: GenerateRequest = {
  messages: [
    { role: 'system', content: 'Answer in one short sentence.' },
    { role: 'user', content: 'What is the capital of France?' },
  ],
  maxOutputTokens: 200,
  purpose: 'probe',
};

const DEFAULT_SETTLE_GRACE_MS = 2_000;

function answered(model: ChatModel, request: GenerateRequest, context: ConformanceContext, situation: string) {
  return validResultOf(() => model.generate(request), generateResultSchema, 'GenerateResult', context, situation);
}

export const CHAT_MODEL_CONFORMANCE_CHECKS: readonly NamedChatModelCheck[] = [
  {
    name: 'declares its specification version, provider, model and capabilities',
    appliesTo: () => true,
    async run(options, context) {
      assertDeclarations(await options.createAnsweringModel(context), 'chat-model');
    },
  },
  {
    name: 'answers with a valid result, its usage filled (and marked estimated when it reports none)',
    appliesTo: () => true,
    async run(options, context) {
      const model = await options.createAnsweringModel(context);
      const result = await answered(model, PROBE_REQUEST, context, 'a plain request');
      assert.ok(
        result.text.trim() !== '' || (result.toolCalls?.length ?? 0) > 0,
        'a plain request: the answer is empty (an empty reply must be an error, never an answer)',
      );
      assertUsage(result.usage, model.capabilities?.reportedUsage, 'a plain request');
    },
  },
  {
    name: 'marks usage as estimated when the provider reports no token counts',
    appliesTo: (options) => options.createModelWithoutReportedUsage !== undefined,
    async run(options, context) {
      const model = await (options.createModelWithoutReportedUsage as ChatModelFactory)(context);
      const result = await answered(model, PROBE_REQUEST, context, 'an answer without token counts');
      assertUsage(result.usage, false, 'an answer without token counts');
    },
  },
  {
    name: 'awaits the announcement of each request before sending it, when it declares announcesDispatch',
    appliesTo: () => true,
    async run(options, context) {
      const model = await options.createAnsweringModel(context);
      assert.ok(model.capabilities !== undefined, 'capabilities must be declared, so the caller knows whether the model announces its requests');
      // A model without a queue of its own need not announce: its caller records the call before calling it.
      if (model.capabilities.announcesDispatch !== true) return;
      let announcements = 0;
      await answered(model, { ...PROBE_REQUEST, onDispatch: async () => void (announcements += 1) }, context, 'a request with onDispatch');
      assert.ok(announcements >= 1, 'capabilities say announcesDispatch, but onDispatch was never called');
      // A caller that cannot record the call refuses it: the model must not send (nor answer) it.
      const refusal = new Error('the ledger cannot record this call');
      const outcome = await model.generate({ ...PROBE_REQUEST, onDispatch: () => Promise.reject(refusal) }).then(
        () => 'answered',
        (error: unknown) => error,
      );
      assert.ok(outcome !== 'answered', 'a request whose onDispatch rejected was answered: the model did not await it before sending');
    },
  },
  {
    name: 'answers a request with a field it does not know, and reports that field as a warning',
    appliesTo: () => true,
    async run(options, context) {
      const model = await options.createAnsweringModel(context);
      const result = await answered(model, { ...PROBE_REQUEST, [PROBE_FIELD]: true } as GenerateRequest, context, 'a request with an unknown field');
      assertProbeWarning(result.warnings, 'a request with an unknown field');
    },
  },
  {
    name: 'refuses an invalid request with a non-retryable SkillOptError instead of answering it',
    appliesTo: () => true,
    async run(options, context) {
      const model = await options.createAnsweringModel(context);
      const error = await rejectionWithin(model.generate({ messages: [], purpose: 'probe' }), 10_000, 'a request without messages');
      assert.ok(SkillOptError.isInstance(error), `a request without messages: expected a SkillOptError, got ${describeError(error)}`);
      assert.equal(
        error.retryable,
        false,
        `a request without messages: the same request cannot succeed later, so it is not retryable: ${describeError(error)}`,
      );
      assertNoSecret(error, context.secret, 'a request without messages');
    },
  },
  {
    name: "honours an abort promptly, rejecting with the signal's reason",
    appliesTo: () => true,
    async run(options, context) {
      const grace = options.settleGraceMs ?? DEFAULT_SETTLE_GRACE_MS;
      const model = await options.createStalledModel({ ...context, timeoutMs: 60_000 });
      const reason = new Error('the conformance suite aborted this call');
      assert.equal(
        await rejectionWithin(model.generate({ ...PROBE_REQUEST, signal: AbortSignal.abort(reason) }), grace, 'an aborted signal'),
        reason,
        'a call with an already aborted signal must reject with its reason',
      );
      const controller = new AbortController();
      const pending = model.generate({ ...PROBE_REQUEST, signal: controller.signal });
      setTimeout(() => controller.abort(reason), 50);
      const error = await rejectionWithin(pending, 50 + grace, 'a call aborted while waiting for its provider');
      assert.equal(error, reason, `a call aborted while waiting must reject with the signal's reason, got ${describeError(error)}`);
    },
  },
  {
    name: 'turns a provider that never answers into a retryable provider-timeout at its time limit',
    appliesTo: () => true,
    async run(options, context) {
      const timeoutMs = options.timeoutMs ?? 300;
      const grace = options.settleGraceMs ?? DEFAULT_SETTLE_GRACE_MS;
      const model = await options.createStalledModel({ ...context, timeoutMs });
      const error = await rejectionWithin(model.generate(PROBE_REQUEST), timeoutMs + grace, `a provider that never answers (limit ${timeoutMs} ms)`);
      assertRetryableProviderError(error, 'a provider that never answers', ['provider-timeout']);
      assertNoSecret(error, context.secret, 'a provider that never answers');
    },
  },
  {
    name: 'keeps its credential out of every error, even when the provider quotes it back',
    appliesTo: (options) => options.createRejectedModel !== undefined,
    async run(options, context) {
      const model = await (options.createRejectedModel as ChatModelFactory)(context);
      const error = await rejectionWithin(model.generate(PROBE_REQUEST), 30_000, 'a provider that refuses the credential');
      assertNoSecret(error, context.secret, 'a provider that refuses the credential');
      assert.ok(SkillOptError.isInstance(error), `a provider that refuses the credential: expected a SkillOptError, got ${describeError(error)}`);
      assert.equal(error.retryable, false, 'a refused credential stays refused, so the error is not retryable');
    },
  },
];
