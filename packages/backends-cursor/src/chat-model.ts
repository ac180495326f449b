import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { CallWarning, ChatModel, GenerateRequest, GenerateResult, ModelCapabilities } from '@skillopt/contract';
import {
  abortReason,
  acceptGenerateRequest,
  chatCallErrorOf,
  runAgentHarness,
  withRetry,
  withTemporaryWorkspace,
  type HarnessDefinition,
  type RateLimiter,
} from '@skillopt/backends-kit';
import { CURSOR_TERMINATION_GRACE_MS } from './agent-runner.js';
import { renderChatPrompt } from './chat-prompt.js';
import { writeCursorRuntime } from './cli-config.js';
import { cursorArguments } from './command-arguments.js';
import { readCursorTranscript } from './cursor-transcript.js';
import { CURSOR_INHERITED_VARIABLES, cursorEnvironment } from './isolated-environment.js';
import { CURSOR_PROVIDER } from './provider.js';
import type { CursorRoleSettings } from './role-settings.js';
import { classifiedCrash } from './run-failure.js';

/**
 * A chat call answers in text; JSON is asked for in words (Cursor has no schema flag), and no tool
 * of the caller's is called. Reported usage is left unsaid, as for the agent runner.
 */
export const CURSOR_CHAT_CAPABILITIES: ModelCapabilities = Object.freeze({ tools: false, images: false, jsonSchemaOutput: false });

const NO_SKILL = { install: async () => [] as readonly string[] };

export interface CursorChatModelOptions {
  settings: CursorRoleSettings;
  apiKey: string;
  rateLimiter?: RateLimiter;
  defaultConcurrency?: number;
  /** How retries wait; tests record the waits instead of sleeping. */
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Cursor as a chat model, for the optimizer and the judge, as the original's Sleep backend used it:
 * each call is one `cursor-agent -p` in Ask mode in an empty folder, its private config denying
 * every read, write and MCP tool, the system text and the conversation as one prompt. A transient
 * failure (a time-out, a run with no usable result, a crash) is tried again up to `max_retries`
 * more times (default once, as the original); a refused key or model is not.
 */
export function createCursorChatModel(options: CursorChatModelOptions): ChatModel {
  const { settings } = options;
  return {
    specificationVersion: 'v1',
    provider: CURSOR_PROVIDER,
    modelId: settings.modelId,
    capabilities: CURSOR_CHAT_CAPABILITIES,
    ...(options.defaultConcurrency === undefined ? {} : { defaultConcurrency: options.defaultConcurrency }),
    async generate(received: GenerateRequest): Promise<GenerateResult> {
      const { request, warnings: unknownFieldWarnings } = acceptGenerateRequest(received, `${CURSOR_PROVIDER} ${settings.modelId}`);
      if (request.signal?.aborted) throw abortReason(request.signal);
      const format = request.responseFormat;
      const { prompt, leftOutImages } = renderChatPrompt(request.messages, { jsonInWords: format?.type === 'json' });
      const warnings: CallWarning[] = [...unknownFieldWarnings, ...unhonouredSettings(request, leftOutImages)];

      const attempt = () =>
        withTemporaryWorkspace('skillopt-cursor-chat', async (directory) => {
          const workspace = path.join(directory, 'work');
          await mkdir(workspace);
          const configDirectory = await writeCursorRuntime(directory, 'chat', settings.sandbox);
          const definition: HarnessDefinition = {
            provider: CURSOR_PROVIDER,
            modelId: settings.modelId,
            capabilities: CURSOR_CHAT_CAPABILITIES,
            skillInstallation: NO_SKILL,
            commandLine: () => ({
              command: settings.command,
              args: cursorArguments({ modelId: settings.modelId, workspace, access: 'read' }),
              allowedEnvironmentVariables: CURSOR_INHERITED_VARIABLES,
              environment: cursorEnvironment({ directory, configDirectory }, options.apiKey),
              secrets: [options.apiKey],
            }),
            readTranscript: readCursorTranscript,
            terminationGraceMs: CURSOR_TERMINATION_GRACE_MS,
            ...(options.rateLimiter ? { rateLimiter: options.rateLimiter } : {}),
          };
          return runAgentHarness(definition, {
            skill: '',
            prompt,
            workspace,
            timeoutMs: settings.timeoutMs,
            purpose: request.purpose,
            ...(request.signal ? { signal: request.signal } : {}),
          }).catch((error: unknown) => {
            throw chatCallErrorOf(classifiedCrash(error));
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

/** What `cursor-agent` has no setting for, each a warning rather than silence. */
function unhonouredSettings(request: GenerateRequest, leftOutImages: boolean): CallWarning[] {
  const warnings: CallWarning[] = [];
  const unsupported = (field: string, message: string) => warnings.push({ type: 'unsupported-setting', field, message });
  if (request.tools !== undefined && request.tools.length > 0)
    unsupported('tools', 'cursor answers chat calls in text: the tools were described to no one and will not be called');
  if (request.responseFormat?.type === 'json' && request.responseFormat.schema !== undefined)
    unsupported('responseFormat', 'cursor-agent has no schema flag: JSON was asked for in words and the schema is not enforced');
  if (request.temperature !== undefined) unsupported('temperature', 'cursor-agent has no temperature setting; the model default applies');
  if (request.maxOutputTokens !== undefined) unsupported('maxOutputTokens', 'cursor-agent has no cap on output tokens; the reply may be longer');
  if (request.reasoningEffort !== undefined) unsupported('reasoningEffort', 'cursor-agent has no reasoning effort setting; pick a model variant instead');
  if (leftOutImages) unsupported('messages', 'cursor chat calls attach no images: the image parts were left out');
  return warnings;
}
