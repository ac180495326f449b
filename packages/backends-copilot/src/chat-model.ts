import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { CallWarning, ChatModel, GenerateRequest, GenerateResult, ModelCapabilities } from '@skillopt/contract';
import {
  acceptGenerateRequest,
  abortReason,
  chatCallErrorOf,
  runAgentHarness,
  withRetry,
  type HarnessDefinition,
  type RateLimiter,
} from '@skillopt/backends-kit';
import { COPILOT_TERMINATION_GRACE_MS, withCopilotRunFolder } from './agent-runner.js';
import { renderChatPrompt } from './chat-prompt.js';
import { copilotArguments, NO_TOOLS } from './copilot-arguments.js';
import { readCopilotTranscript, readUsageReport } from './copilot-transcript.js';
import { COPILOT_INHERITED_VARIABLES, copilotEnvironment } from './isolated-environment.js';
import { COPILOT_PROVIDER } from './provider.js';
import type { CopilotRoleSettings } from './role-settings.js';

/** A chat call reports its tokens; it calls no tools of the caller's, and Copilot has no setting that holds a reply to a JSON Schema. */
export const COPILOT_CHAT_CAPABILITIES: ModelCapabilities = Object.freeze({ tools: false, images: false, jsonSchemaOutput: false, reportedUsage: true });

const JSON_ONLY_INSTRUCTION = 'Reply with one JSON value and nothing else.';

export interface CopilotChatModelOptions {
  settings: CopilotRoleSettings;
  apiKey: string;
  rateLimiter?: RateLimiter;
  defaultConcurrency?: number;
  /** How retries wait; tests record the waits instead of sleeping. */
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Copilot as a chat model, for the optimizer and the judge (the original's copilot_chat): each call
 * is one `copilot` run in an empty folder with no tools at all (`--available-tools` naming none:
 * an empty value would leave every tool on), no custom instructions, the conversation as the
 * prompt on stdin, and a JSON reply asked for in words (with the schema) since Copilot cannot
 * hold one to a schema. A transient failure (a crash, a time-out, a 5xx or 429 Copilot reported)
 * is tried again up to `max_retries` more times; the error that outlives them carries the attempts made.
 */
export function createCopilotChatModel(options: CopilotChatModelOptions): ChatModel {
  const { settings } = options;
  return {
    specificationVersion: 'v1',
    provider: COPILOT_PROVIDER,
    modelId: settings.modelId,
    capabilities: COPILOT_CHAT_CAPABILITIES,
    ...(options.defaultConcurrency === undefined ? {} : { defaultConcurrency: options.defaultConcurrency }),
    async generate(received: GenerateRequest): Promise<GenerateResult> {
      const { request, warnings: unknownFieldWarnings } = acceptGenerateRequest(received, `${COPILOT_PROVIDER} ${settings.modelId}`);
      if (request.signal?.aborted) throw abortReason(request.signal);
      const warnings: CallWarning[] = [...unknownFieldWarnings, ...unhonouredSettings(request)];
      const format = request.responseFormat;
      const closing =
        format?.type !== 'json'
          ? undefined
          : format.schema === undefined
            ? JSON_ONLY_INSTRUCTION
            : `Reply with one JSON value that matches this JSON Schema, and nothing else:\n${JSON.stringify(format.schema)}`;
      const prompt = renderChatPrompt(request.messages, closing);
      const effort = request.reasoningEffort ?? settings.reasoningEffort;

      const attempt = () =>
        withCopilotRunFolder('skillopt-copilot-chat', async (folder) => {
          const workingDirectory = path.join(path.dirname(folder.home), 'work');
          await mkdir(workingDirectory);
          const definition: HarnessDefinition = {
            provider: COPILOT_PROVIDER,
            modelId: settings.modelId,
            capabilities: COPILOT_CHAT_CAPABILITIES,
            skillInstallation: { install: async () => [] },
            commandLine: () => ({
              command: settings.command,
              args: copilotArguments({ availableTools: [NO_TOOLS], usageFile: folder.usageFile, reasoningEffort: effort, chat: true }),
              allowedEnvironmentVariables: COPILOT_INHERITED_VARIABLES,
              environment: copilotEnvironment(settings, folder.home, options.apiKey),
              secrets: [options.apiKey],
            }),
            readTranscript: () => readCopilotTranscript(() => readUsageReport(folder.usageFile)),
            terminationGraceMs: COPILOT_TERMINATION_GRACE_MS,
            ...(options.rateLimiter ? { rateLimiter: options.rateLimiter } : {}),
          };
          return runAgentHarness(definition, {
            skill: '',
            prompt,
            workspace: workingDirectory,
            timeoutMs: settings.timeoutMs,
            purpose: request.purpose,
            ...(request.signal ? { signal: request.signal } : {}),
          }).catch((error: unknown) => {
            throw chatCallErrorOf(error);
          });
        });
      const result = await withRetry(attempt, {
        maxAttempts: settings.maxRetries + 1,
        ...(request.signal ? { signal: request.signal } : {}),
        ...(options.sleep ? { sleep: options.sleep } : {}),
      });
      const allWarnings = [...warnings, ...(result.warnings ?? [])];
      return {
        text: result.finalText,
        usage: result.usage,
        finishReason: 'stop',
        ...(allWarnings.length > 0 ? { warnings: allWarnings } : {}),
      };
    },
  };
}

/** What a Copilot run has no setting for, each a warning rather than silence. */
function unhonouredSettings(request: GenerateRequest): CallWarning[] {
  const warnings: CallWarning[] = [];
  const unsupported = (field: string, message: string) => warnings.push({ type: 'unsupported-setting', field, message });
  if (request.tools !== undefined && request.tools.length > 0)
    unsupported('tools', 'copilot answers chat calls in text: the tools were described to no one and will not be called');
  if (request.temperature !== undefined) unsupported('temperature', 'copilot has no temperature setting; its own applies');
  if (request.maxOutputTokens !== undefined) unsupported('maxOutputTokens', 'copilot has no per-call cap on output tokens; the reply may be longer');
  if (request.responseFormat?.type === 'json' && request.responseFormat.schema !== undefined)
    unsupported('responseFormat', 'copilot cannot hold a reply to a JSON Schema: the schema was given in the prompt, and the reply may not match it');
  if (
    request.messages.some((message) => message.role === 'user' && typeof message.content !== 'string' && message.content.some((part) => part.type === 'image'))
  )
    unsupported('messages', 'copilot chat calls attach no images: the image parts were left out');
  return warnings;
}
