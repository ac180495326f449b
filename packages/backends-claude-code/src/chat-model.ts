import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  acceptGenerateRequest,
  chatCallErrorOf,
  runAgentHarness,
  withTemporaryWorkspace,
  type HarnessDefinition,
  type RateLimiter,
} from '@skillopt/backends-kit';
import type { CallWarning, ChatModel, GenerateRequest, GenerateResult, ReasoningEffort } from '@skillopt/contract';
import { buildChatPrompt } from './chat-prompt.js';
import { childEnvironment, inheritedVariables } from './child-environment.js';
import { chatArguments } from './command-arguments.js';
import type { ClaudeCodeBackendConfig, ClaudeCodeEffort } from './config-schema.js';
import type { ClaudeCodeCredential } from './credentials.js';
import { CLAUDE_CODE_PROVIDER } from './provider.js';
import type { ClaudeCodeRoleSettings } from './role-settings.js';
import { readClaudeTranscript } from './transcript-translation.js';
import { modelsOfModelUsage } from './usage-mapping.js';

export interface ClaudeCodeChatModelOptions {
  config: ClaudeCodeBackendConfig;
  settings: ClaudeCodeRoleSettings;
  credential: ClaudeCodeCredential;
  apiOrigin: string | undefined;
  limiter?: RateLimiter | undefined;
}

const SYSTEM_PROMPT_FILE = 'system-prompt.txt';
const NO_SKILL = { install: async () => [] as readonly string[] };

/** The request's effort as Claude Code's; `none` turns thinking off instead, which --effort cannot say. */
function effortOf(requested: ReasoningEffort | undefined, configured: ClaudeCodeEffort | undefined): ClaudeCodeEffort | undefined {
  if (requested === undefined || requested === 'none') return configured;
  return requested === 'minimal' ? 'low' : requested;
}

/**
 * Claude Code as a chat model for optimizer and judge calls: one `claude -p --output-format json`
 * per call with every tool off, our system prompt in place of its own, a reply schema through
 * `--json-schema` (read back from `structured_output`), in a fresh directory with a fresh config
 * directory, removed afterwards. The process runs through backends-kit's agent-run flow, so time
 * limits, aborts, crashes and secrets are handled as for a target run.
 */
export function createClaudeCodeChatModel(options: ClaudeCodeChatModelOptions): ChatModel {
  const { config, settings } = options;
  return {
    specificationVersion: 'v1',
    provider: CLAUDE_CODE_PROVIDER,
    modelId: settings.modelId,
    capabilities: { tools: false, images: false, jsonSchemaOutput: true, streaming: false, reportedUsage: true },
    defaultConcurrency: config.max_concurrency,
    async generate(received: GenerateRequest): Promise<GenerateResult> {
      const { request, warnings: unknownFieldWarnings } = acceptGenerateRequest(received, `${CLAUDE_CODE_PROVIDER} ${settings.modelId}`);
      const warnings: CallWarning[] = [...unknownFieldWarnings];
      const format = request.responseFormat;
      const jsonSchema = format?.type === 'json' ? format.schema : undefined;
      const prompt = buildChatPrompt(request.messages, { jsonInWords: format?.type === 'json' && jsonSchema === undefined });
      if (request.tools !== undefined && request.tools.length > 0)
        warnings.push({
          type: 'unsupported-setting',
          field: 'tools',
          message: 'Claude Code as a chat model runs with its tools off; the tools were not offered',
        });
      if (request.temperature !== undefined)
        warnings.push({ type: 'unsupported-setting', field: 'temperature', message: 'Claude Code has no temperature setting; the default was used' });
      if (prompt.leftOutImages)
        warnings.push({ type: 'unsupported-setting', field: 'messages', message: 'Claude Code as a chat model takes text only; images were left out' });

      return withTemporaryWorkspace('skillopt-claude-chat', async (directory) => {
        const workspace = path.join(directory, 'work');
        const configDirectory = path.join(directory, 'config');
        await mkdir(workspace);
        await mkdir(configDirectory);
        const systemPromptFile = path.join(directory, SYSTEM_PROMPT_FILE);
        await writeFile(systemPromptFile, prompt.system, 'utf8');
        const definition: HarnessDefinition = {
          provider: CLAUDE_CODE_PROVIDER,
          modelId: settings.modelId,
          skillInstallation: NO_SKILL,
          commandLine: () => ({
            command: config.path,
            args: chatArguments({ modelId: settings.modelId, systemPromptFile, effort: effortOf(request.reasoningEffort, settings.effort), jsonSchema }),
            allowedEnvironmentVariables: inheritedVariables(config.pass_environment),
            environment: childEnvironment({
              configDirectory,
              credential: options.credential,
              apiOrigin: options.apiOrigin,
              maxThinkingTokens: request.reasoningEffort === 'none' ? 0 : settings.maxThinkingTokens,
              maxOutputTokens: request.maxOutputTokens,
              permissionEnvironment: {},
            }),
            secrets: [options.credential.value],
          }),
          readTranscript: readClaudeTranscript,
          ...(options.limiter ? { rateLimiter: options.limiter } : {}),
        };
        const run = await runAgentHarness(definition, {
          skill: '',
          prompt: prompt.user,
          workspace,
          timeoutMs: settings.timeoutMs,
          purpose: request.purpose,
          ...(request.signal ? { signal: request.signal } : {}),
        }).catch((error: unknown) => {
          throw chatCallErrorOf(error);
        });
        const result = run.transcript.find((event) => event.type === 'result');
        const models = modelsOfModelUsage(result?.modelUsage);
        return {
          text: run.finalText,
          usage: run.usage,
          finishReason: result?.stop_reason === 'max_tokens' ? 'length' : 'stop',
          providerMetadata: {
            ...(typeof result?.session_id === 'string' ? { sessionId: result.session_id } : {}),
            ...(typeof result?.num_turns === 'number' ? { turns: result.num_turns } : {}),
            ...(models.length > 0 ? { models } : {}),
          },
          ...(warnings.length > 0 || run.warnings ? { warnings: [...warnings, ...(run.warnings ?? [])] } : {}),
        };
      });
    },
  };
}
