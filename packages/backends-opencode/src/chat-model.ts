import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { CallWarning, ChatModel, GenerateRequest, GenerateResult, ModelCapabilities } from '@skillopt/contract';
import {
  abortReason,
  acceptGenerateRequest,
  chatCallErrorOf,
  renderHarnessChatPrompt,
  runAgentHarness,
  withRetry,
  withTemporaryWorkspace,
  type HarnessDefinition,
  type RateLimiter,
} from '@skillopt/backends-kit';
import { OPENCODE_TERMINATION_GRACE_MS } from './agent-runner.js';
import { inheritedVariables, opencodeEnvironment } from './isolated-environment.js';
import { opencodeRunArguments } from './opencode-arguments.js';
import { readOpencodeTranscript } from './opencode-transcript.js';
import { CHAT_PERMISSION } from './permissions.js';
import { OPENCODE_PROVIDER } from './provider.js';
import type { OpencodeRoleSettings } from './role-settings.js';
import { runConfig } from './run-config.js';

/**
 * A chat call reports its tokens and calls no tools of the caller's. `opencode run` has no way to
 * hold a reply to a JSON Schema, so a call that wants JSON asks for it in words (and the
 * optimizer's JSON repair takes the rest).
 */
export const OPENCODE_CHAT_CAPABILITIES: ModelCapabilities = Object.freeze({ tools: false, images: false, jsonSchemaOutput: false, reportedUsage: true });

/** The system prompt of a call whose messages carry none: OpenCode's own is for coding sessions. */
const DEFAULT_CHAT_SYSTEM_PROMPT = 'You are a helpful assistant. Answer the request directly.';
const JSON_ONLY_INSTRUCTION = 'Reply with one JSON value and nothing else.';

export interface OpencodeChatModelOptions {
  settings: OpencodeRoleSettings;
  apiKey: string;
  rateLimiter?: RateLimiter;
  defaultConcurrency?: number;
  /** How retries wait; tests record the waits instead of sleeping. */
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * OpenCode as a chat model, for the optimizer and the judge: each call is one `opencode run` in an
 * empty folder with an agent that may use no tool at all (so the model is offered none), the
 * caller's system text as that agent's prompt in place of OpenCode's coding-agent prompt, and the
 * rest of the conversation as the prompt. A transient failure (a crash, a time-out, a 5xx or 429
 * the CLI reported) is tried again up to `max_retries` more times.
 */
export function createOpencodeChatModel(options: OpencodeChatModelOptions): ChatModel {
  const { settings } = options;
  return {
    specificationVersion: 'v1',
    provider: OPENCODE_PROVIDER,
    modelId: settings.modelId,
    capabilities: OPENCODE_CHAT_CAPABILITIES,
    ...(options.defaultConcurrency === undefined ? {} : { defaultConcurrency: options.defaultConcurrency }),
    async generate(received: GenerateRequest): Promise<GenerateResult> {
      const { request, warnings: unknownFieldWarnings } = acceptGenerateRequest(received, `${OPENCODE_PROVIDER} ${settings.modelId}`);
      if (request.signal?.aborted) throw abortReason(request.signal);
      const warnings: CallWarning[] = [...unknownFieldWarnings, ...unhonouredSettings(request)];
      const { system, prompt: conversation } = renderHarnessChatPrompt(request.messages);
      const prompt = [conversation, ...(request.responseFormat?.type === 'json' ? [JSON_ONLY_INSTRUCTION] : [])].join('\n\n');
      const config = runConfig({
        baseUrl: settings.baseUrl,
        modelId: settings.modelId,
        permission: CHAT_PERMISSION,
        systemPrompt: system ?? DEFAULT_CHAT_SYSTEM_PROMPT,
      });

      const attempt = () =>
        withTemporaryWorkspace('skillopt-opencode-chat', async (directory) => {
          const home = path.join(directory, 'home');
          const workingDirectory = path.join(directory, 'work');
          await Promise.all([mkdir(home), mkdir(workingDirectory)]);
          const definition: HarnessDefinition = {
            provider: OPENCODE_PROVIDER,
            modelId: settings.modelId,
            capabilities: OPENCODE_CHAT_CAPABILITIES,
            skillInstallation: { install: async () => [] },
            commandLine: () => ({
              command: settings.command,
              args: opencodeRunArguments({ modelId: settings.modelId, workingDirectory, variant: settings.variant }),
              allowedEnvironmentVariables: inheritedVariables(settings.passEnvironment),
              environment: opencodeEnvironment(home, JSON.stringify(config), options.apiKey),
              secrets: [options.apiKey],
            }),
            readTranscript: readOpencodeTranscript,
            terminationGraceMs: OPENCODE_TERMINATION_GRACE_MS,
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

/** What `opencode run` has no setting for, each a warning rather than silence. */
function unhonouredSettings(request: GenerateRequest): CallWarning[] {
  const warnings: CallWarning[] = [];
  const unsupported = (field: string, message: string) => warnings.push({ type: 'unsupported-setting', field, message });
  if (request.tools !== undefined && request.tools.length > 0)
    unsupported('tools', 'opencode answers chat calls in text: the tools were described to no one and will not be called');
  if (request.responseFormat?.type === 'json' && request.responseFormat.schema !== undefined)
    unsupported('responseFormat', 'opencode run cannot hold a reply to a JSON Schema: the reply was asked for JSON in words');
  if (request.temperature !== undefined) unsupported('temperature', 'opencode run has no temperature setting; the model default applies');
  if (request.maxOutputTokens !== undefined) unsupported('maxOutputTokens', 'opencode run has no cap on output tokens; the reply may be longer');
  if (request.reasoningEffort !== undefined)
    unsupported('reasoningEffort', "opencode run takes its effort from the config's variant only; the call's reasoningEffort was not applied");
  if (
    request.messages.some((message) => message.role === 'user' && typeof message.content !== 'string' && message.content.some((part) => part.type === 'image'))
  )
    unsupported('messages', 'opencode chat calls attach no images: the image parts were left out');
  return warnings;
}
