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
import { CODEX_TERMINATION_GRACE_MS } from './agent-runner.js';
import { codexExecArguments } from './codex-arguments.js';
import { readCodexTranscript } from './codex-transcript.js';
import type { CodexReasoningEffort } from './config-schema.js';
import { renderChatPrompt } from './chat-prompt.js';
import { CODEX_INHERITED_VARIABLES, codexEnvironment } from './isolated-environment.js';
import { CODEX_PROVIDER } from './provider.js';
import type { CodexRoleSettings } from './role-settings.js';

/** A chat call holds a reply to a JSON Schema (`--output-schema`) and reports its tokens; it calls no tools of the caller's. */
export const CODEX_CHAT_CAPABILITIES: ModelCapabilities = Object.freeze({ tools: false, images: false, jsonSchemaOutput: true, reportedUsage: true });

const JSON_ONLY_INSTRUCTION = 'Reply with one JSON value and nothing else.';
const SCHEMA_FILE = 'output-schema.json';

export interface CodexChatModelOptions {
  settings: CodexRoleSettings;
  apiKey: string;
  rateLimiter?: RateLimiter;
  defaultConcurrency?: number;
  /** How retries wait; tests record the waits instead of sleeping. */
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Codex as a chat model, for the optimizer and the judge: each call is one `codex exec` in an empty
 * read-only folder with its shell, sub agents, goals, image generation and web search off, the
 * system text as Codex's developer instructions, the rest of the conversation as the prompt, and a JSON reply held to the request's schema by `--output-schema`.
 * A transient failure (a crash, a time-out, a 5xx or 429 the CLI reported) is tried again up to
 * `max_retries` more times; the error that outlives them is marked with the attempts made.
 */
export function createCodexChatModel(options: CodexChatModelOptions): ChatModel {
  const { settings } = options;
  return {
    specificationVersion: 'v1',
    provider: CODEX_PROVIDER,
    modelId: settings.modelId,
    capabilities: CODEX_CHAT_CAPABILITIES,
    ...(options.defaultConcurrency === undefined ? {} : { defaultConcurrency: options.defaultConcurrency }),
    async generate(received: GenerateRequest): Promise<GenerateResult> {
      const { request, warnings: unknownFieldWarnings } = acceptGenerateRequest(received, `${CODEX_PROVIDER} ${settings.modelId}`);
      if (request.signal?.aborted) throw abortReason(request.signal);
      const warnings: CallWarning[] = [...unknownFieldWarnings, ...unhonouredSettings(request)];
      const format = request.responseFormat;
      const schema = format?.type === 'json' ? format.schema : undefined;
      const { developerInstructions, prompt: conversation } = renderChatPrompt(request.messages);
      const prompt = [conversation, ...(format?.type === 'json' && schema === undefined ? [JSON_ONLY_INSTRUCTION] : [])].join('\n\n');

      const attempt = () =>
        withTemporaryWorkspace('skillopt-codex-chat', async (directory) => {
          const home = path.join(directory, 'home');
          const workingDirectory = path.join(directory, 'work');
          await Promise.all([mkdir(home), mkdir(workingDirectory)]);
          const outputSchemaFile = schema === undefined ? undefined : path.join(directory, SCHEMA_FILE);
          if (outputSchemaFile !== undefined) await writeFile(outputSchemaFile, JSON.stringify(schema));
          const definition: HarnessDefinition = {
            provider: CODEX_PROVIDER,
            modelId: settings.modelId,
            capabilities: CODEX_CHAT_CAPABILITIES,
            skillInstallation: { install: async () => [] },
            commandLine: () => ({
              command: settings.command,
              args: codexExecArguments({
                settings,
                workingDirectory,
                sandbox: 'read-only',
                reasoningEffort: effortOf(request.reasoningEffort),
                chat: true,
                developerInstructions,
                outputSchemaFile,
              }),
              allowedEnvironmentVariables: CODEX_INHERITED_VARIABLES,
              environment: codexEnvironment(home, options.apiKey, settings.command),
              secrets: [options.apiKey],
            }),
            readTranscript: readCodexTranscript,
            terminationGraceMs: CODEX_TERMINATION_GRACE_MS,
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

/** A chat call's reasoning effort as Codex names it; `none` asks for nothing (some models refuse `none`). */
function effortOf(effort: GenerateRequest['reasoningEffort']): CodexReasoningEffort | undefined {
  return effort === undefined || effort === 'none' ? undefined : effort;
}

/** What `codex exec` has no setting for, each a warning rather than silence. */
function unhonouredSettings(request: GenerateRequest): CallWarning[] {
  const warnings: CallWarning[] = [];
  const unsupported = (field: string, message: string) => warnings.push({ type: 'unsupported-setting', field, message });
  if (request.tools !== undefined && request.tools.length > 0)
    unsupported('tools', 'codex answers chat calls in text: the tools were described to no one and will not be called');
  if (request.temperature !== undefined) unsupported('temperature', 'codex exec has no temperature setting; the model default applies');
  if (request.maxOutputTokens !== undefined) unsupported('maxOutputTokens', 'codex exec has no cap on output tokens; the reply may be longer');
  if (
    request.messages.some((message) => message.role === 'user' && typeof message.content !== 'string' && message.content.some((part) => part.type === 'image'))
  )
    unsupported('messages', 'codex chat calls attach no images: the image parts were left out');
  return warnings;
}
