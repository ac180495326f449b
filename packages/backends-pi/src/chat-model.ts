import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CallWarning, ChatModel, GenerateRequest, GenerateResult, ModelCapabilities } from '@skillopt/contract';
import {
  acceptGenerateRequest,
  abortReason,
  chatCallErrorOf,
  runAgentHarness,
  withRetry,
  withTemporaryWorkspace,
  type HarnessDefinition,
  type RateLimiter,
} from '@skillopt/backends-kit';
import { PI_TERMINATION_GRACE_MS } from './agent-runner.js';
import { writeAgentDirectory } from './agent-directory.js';
import { renderChatPrompt } from './chat-prompt.js';
import type { PiThinkingLevel } from './config-schema.js';
import { PI_INHERITED_VARIABLES, piEnvironment } from './isolated-environment.js';
import { piArguments } from './pi-arguments.js';
import { readPiTranscript } from './pi-transcript.js';
import { PI_PROVIDER } from './provider.js';
import type { PiRoleSettings } from './role-settings.js';

/**
 * A chat call reports its tokens; it calls no tools of the caller's, and Pi has no way to hold a
 * reply to a JSON Schema, so a JSON reply is asked for in words (with the schema quoted).
 */
export const PI_CHAT_CAPABILITIES: ModelCapabilities = Object.freeze({ tools: false, images: false, jsonSchemaOutput: false, reportedUsage: true });

const JSON_ONLY_INSTRUCTION = 'Reply with one JSON value and nothing else.';
const SYSTEM_PROMPT_FILE = 'system-prompt.md';

export interface PiChatModelOptions {
  settings: PiRoleSettings;
  apiKey: string;
  rateLimiter?: RateLimiter;
  defaultConcurrency?: number;
  /** How retries wait; tests record the waits instead of sleeping. */
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Pi as a chat model, for the optimizer and the judge: each call is one `pi -p` in an empty
 * folder with no tools, context files or skills, the caller's system text replacing Pi's own
 * system prompt, the rest of the conversation as the prompt, and the call's `maxOutputTokens` as
 * the model's `maxTokens` in the run's models.json. A transient failure (a crash, a time-out, a
 * 5xx or 429 Pi reported) is tried again up to `max_retries` more times.
 */
export function createPiChatModel(options: PiChatModelOptions): ChatModel {
  const { settings } = options;
  return {
    specificationVersion: 'v1',
    provider: PI_PROVIDER,
    modelId: settings.modelId,
    capabilities: PI_CHAT_CAPABILITIES,
    ...(options.defaultConcurrency === undefined ? {} : { defaultConcurrency: options.defaultConcurrency }),
    async generate(received: GenerateRequest): Promise<GenerateResult> {
      const { request, warnings: unknownFieldWarnings } = acceptGenerateRequest(received, `${PI_PROVIDER} ${settings.modelId}`);
      if (request.signal?.aborted) throw abortReason(request.signal);
      const warnings: CallWarning[] = [...unknownFieldWarnings, ...unhonouredSettings(request)];
      const { system, prompt: conversation } = renderChatPrompt(request.messages);
      const prompt = [conversation, ...jsonInstruction(request.responseFormat)].join('\n\n');
      const thinking = thinkingOf(request.reasoningEffort);
      const effectiveThinking = thinking ?? settings.thinking;

      const attempt = () =>
        withTemporaryWorkspace('skillopt-pi-chat', async (directory) => {
          const home = path.join(directory, 'home');
          const workingDirectory = path.join(directory, 'work');
          await Promise.all([mkdir(home), mkdir(workingDirectory)]);
          const systemPromptFile = path.join(directory, SYSTEM_PROMPT_FILE);
          await writeFile(systemPromptFile, system);
          const agentDirectory = await writeAgentDirectory(home, settings, {
            reasoning: effectiveThinking !== undefined && effectiveThinking !== 'off',
            maxTokens: request.maxOutputTokens,
          });
          const definition: HarnessDefinition = {
            provider: PI_PROVIDER,
            modelId: settings.modelId,
            capabilities: PI_CHAT_CAPABILITIES,
            skillInstallation: { install: async () => [] },
            commandLine: () => ({
              command: settings.command,
              args: piArguments({ kind: 'chat', settings, systemPromptFile, thinking }),
              allowedEnvironmentVariables: PI_INHERITED_VARIABLES,
              environment: piEnvironment(home, agentDirectory, options.apiKey),
              secrets: [options.apiKey],
            }),
            readTranscript: readPiTranscript,
            terminationGraceMs: PI_TERMINATION_GRACE_MS,
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

/** A JSON reply asked for in words: Pi has no structured-output setting. */
function jsonInstruction(format: GenerateRequest['responseFormat']): string[] {
  if (format?.type !== 'json') return [];
  if (format.schema === undefined) return [JSON_ONLY_INSTRUCTION];
  return [`${JSON_ONLY_INSTRUCTION} It must match this JSON Schema:\n${JSON.stringify(format.schema)}`];
}

/** A chat call's reasoning effort as Pi's thinking level; `none` is Pi's `off`. */
function thinkingOf(effort: GenerateRequest['reasoningEffort']): PiThinkingLevel | undefined {
  if (effort === undefined) return undefined;
  return effort === 'none' ? 'off' : effort;
}

/** What `pi -p` has no setting for, each a warning rather than silence. */
function unhonouredSettings(request: GenerateRequest): CallWarning[] {
  const warnings: CallWarning[] = [];
  const unsupported = (field: string, message: string) => warnings.push({ type: 'unsupported-setting', field, message });
  if (request.tools !== undefined && request.tools.length > 0)
    unsupported('tools', 'pi answers chat calls in text: the tools were described to no one and will not be called');
  if (request.temperature !== undefined) unsupported('temperature', 'pi has no temperature setting; the model default applies');
  if (request.responseFormat?.type === 'json' && request.responseFormat.schema !== undefined)
    unsupported('responseFormat', 'pi cannot hold a reply to a JSON Schema: the schema was given to the model in words, and the reply may not match it');
  if (
    request.messages.some((message) => message.role === 'user' && typeof message.content !== 'string' && message.content.some((part) => part.type === 'image'))
  )
    unsupported('messages', 'pi chat calls attach no images: the image parts were left out');
  return warnings;
}
