import {
  AnswerPendingError,
  redactSecrets,
  type CallWarning,
  type ChatModel,
  type GenerateRequest,
  type GenerateResult,
  type ModelCapabilities,
  type ModelRole,
} from '@skillopt/contract';
import { acceptGenerateRequest, estimateTokens } from '@skillopt/backends-kit';
import { HandoffFolder } from './handoff-folder.js';
import { answerFormatOf, renderRequestPrompt } from './request-prompt.js';

export const HANDOFF_PROVIDER = 'handoff';

/** It answers out of band, keyed by `requestKey`; it calls no tool and reports no real token counts. */
export const HANDOFF_CAPABILITIES: ModelCapabilities = Object.freeze({
  keyedRequests: true,
  tools: false,
  images: false,
  jsonSchemaOutput: false,
  streaming: false,
  reportedUsage: false,
});

/** Nothing is sent anywhere: every request of a batch is written at once. */
const HANDOFF_CONCURRENCY = 64;

export interface HandoffChatModelOptions {
  folder: HandoffFolder;
  role: ModelRole;
  modelId: string;
}

/** Why an answer cannot be used, or undefined when it can. */
function answerProblem(answer: string, request: GenerateRequest): string | undefined {
  if (answer.trim() === '') return 'it is empty';
  if (answerFormatOf(request).type !== 'json') return undefined;
  try {
    JSON.parse(answer);
    return undefined;
  } catch (error) {
    return `it is not valid JSON (${error instanceof Error ? error.message : String(error)})`;
  }
}

/**
 * A chat model that calls no model: a request is answered from `answers/<id>.md` when the user's
 * agent wrote one; otherwise it is written to the folder (its prompt, the request itself, where its
 * answer goes) and the call rejects with `answer-pending`, which stops the run resumably. The id
 * is the caller's `requestKey` when it gives one (core does for rollouts), else the request's
 * content. An answer that cannot be used (empty, or not the JSON asked for) is reported with its
 * file and the request waits again.
 */
export function createHandoffChatModel(options: HandoffChatModelOptions): ChatModel {
  const { folder, role, modelId } = options;
  return {
    specificationVersion: 'v1',
    provider: HANDOFF_PROVIDER,
    modelId,
    capabilities: HANDOFF_CAPABILITIES,
    defaultConcurrency: HANDOFF_CONCURRENCY,
    async generate(received: GenerateRequest): Promise<GenerateResult> {
      if (received.signal?.aborted) throw received.signal.reason;
      const { request, warnings: unknownFields } = acceptGenerateRequest(received, `${HANDOFF_PROVIDER} ${modelId}`);
      const identity = request.requestKey ?? JSON.stringify({ messages: request.messages, responseFormat: request.responseFormat ?? null });
      const id = HandoffFolder.requestId(request.purpose, `${role}\n${identity}`);
      const answerFile = `answers/${id}.md`;
      const answer = await folder.readAnswer(id);
      const problem = answer === undefined ? undefined : answerProblem(answer, request);
      if (answer === undefined || problem !== undefined) {
        const entry = {
          id,
          ...(request.requestKey === undefined ? {} : { requestKey: request.requestKey }),
          role,
          purpose: request.purpose,
          answerFormat: answerFormatOf(request),
          ...(problem === undefined ? {} : { problem: `${answerFile}: ${problem}` }),
        };
        const { signal: _signal, onDispatch: _onDispatch, ...data } = request;
        await folder.addPending(entry, renderRequestPrompt(request, { id, role, answerFile }), redactSecrets({ id, role, ...data }));
        throw new AnswerPendingError({
          requestIds: [id],
          directory: folder.directory,
          ...(problem === undefined ? {} : { problems: [`${answerFile}: ${problem}`] }),
        });
      }
      await folder.removePending(id);
      const text = answer.replace(/\s+$/, '');
      const warnings: CallWarning[] = [...unknownFields];
      if (request.tools !== undefined && request.tools.length > 0)
        warnings.push({ type: 'unsupported-setting', field: 'tools', message: 'a handoff answer is text only: the tools offered were not called' });
      const promptText = request.messages.map((message) => JSON.stringify(message.content)).join('\n');
      return {
        text,
        // Nobody reports token counts for an answer written by hand: estimated from the text, and marked so.
        usage: { inputTokens: estimateTokens(promptText), outputTokens: estimateTokens(text), estimated: true },
        finishReason: 'stop',
        providerMetadata: { answerFile },
        ...(warnings.length > 0 ? { warnings } : {}),
      };
    },
  };
}
