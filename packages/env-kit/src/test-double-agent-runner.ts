import type { AgentRunner, AgentRunRequest, AgentRunResult, ModelCapabilities, TaskItem } from '@skillopt/contract';
import { abortable } from '@skillopt/runtime-kit';
import { createReferenceAnswerKey, formatAnswerInTags } from './reference-answer-key.js';
import type { ReferenceAnsweringOptions } from './test-double-chat-model.js';

/** What a scripted run may return: the final text, or a whole run result. */
export type ScriptedAgentReply = string | AgentRunResult;

export type ScriptedAgentReplyFunction = (request: AgentRunRequest, callIndex: number) => ScriptedAgentReply | Promise<ScriptedAgentReply>;

export interface ScriptedAgentRunnerOptions {
  /** A function of the request and the 0-based run number (it may throw), or replies in run order. */
  reply: ScriptedAgentReplyFunction | readonly ScriptedAgentReply[];
  provider?: string;
  modelId?: string;
  /**
   * What it declares it can honour. Default `{ sandboxedRuns: true }`: a double starts no process,
   * so no harness of its runs can reach anything, whatever isolation the request asks for.
   */
  capabilities?: ModelCapabilities;
}

/** An AgentRunner test double that also keeps every request it received, in call order. */
export interface ScriptedAgentRunner extends AgentRunner {
  readonly calls: readonly AgentRunRequest[];
}

function toAgentRunResult(reply: ScriptedAgentReply, request: AgentRunRequest): AgentRunResult {
  if (typeof reply !== 'string') return reply;
  return {
    finalText: reply,
    transcript: [{ type: 'message', role: 'assistant', content: reply }],
    // A harness double reports no usage of its own, so it is marked estimated, as real ones are.
    usage: { inputTokens: Math.ceil(request.prompt.length / 4), outputTokens: Math.ceil(reply.length / 4), estimated: true },
    exitStatus: { code: 0, signal: null, timedOut: false },
  };
}

/**
 * TEST DOUBLE. An AgentRunner that answers from a script instead of running a harness; it rejects
 * with the signal's reason when `request.signal` is aborted before or during a scripted reply.
 */
export function createScriptedAgentRunner(options: ScriptedAgentRunnerOptions): ScriptedAgentRunner {
  const calls: AgentRunRequest[] = [];
  const script = options.reply;
  const replyFor: ScriptedAgentReplyFunction =
    typeof script === 'function'
      ? script
      : (_request, callIndex) => {
          const reply = script[callIndex];
          if (reply === undefined) {
            throw new Error(`scripted agent runner: no reply scripted for run ${callIndex + 1} (${script.length} scripted)`);
          }
          return reply;
        };
  return {
    specificationVersion: 'v1',
    provider: options.provider ?? 'test-double',
    modelId: options.modelId ?? 'scripted-agent-runner',
    capabilities: options.capabilities ?? { sandboxedRuns: true },
    calls,
    async run(request: AgentRunRequest): Promise<AgentRunResult> {
      if (request.signal?.aborted) throw request.signal.reason;
      const callIndex = calls.length;
      calls.push(request);
      const reply = await abortable(
        Promise.resolve().then(() => replyFor(request, callIndex)),
        request.signal,
      );
      return toAgentRunResult(reply, request);
    },
  };
}

/** What an agent can read of a request without a tool: its prompt and the text files it is given (`task.md`, …). */
function readableText(request: AgentRunRequest): string {
  const texts = (request.files ?? []).flatMap((file) => (typeof file.content === 'string' ? [file.content] : []));
  return [request.prompt, ...texts].join('\n');
}

/**
 * TEST DOUBLE. An AgentRunner that knows every answer: it finds the item its prompt or its text
 * files (an env's `task.md`) are about and answers with the item's first reference (see
 * `createReferenceAnsweringChatModel`).
 */
export function createReferenceAnsweringAgentRunner(items: readonly TaskItem[], options: ReferenceAnsweringOptions = {}): ScriptedAgentRunner {
  const findItem = createReferenceAnswerKey(items);
  const formatAnswer = options.formatAnswer ?? formatAnswerInTags;
  const unknownReply = options.unknownReply ?? 'I do not know.';
  return createScriptedAgentRunner({
    modelId: 'reference-answering-agent-runner',
    reply: (request) => {
      const item = findItem(readableText(request));
      const reference = item?.references?.[0];
      return item === undefined || reference === undefined ? unknownReply : formatAnswer(reference, item);
    },
  });
}
