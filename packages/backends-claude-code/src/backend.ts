import type { AgentRunner, Backend, BackendPackage, ChatModel, ModelRequest, PackageManifest } from '@skillopt/contract';
import { parseBackendConfig, processRateLimiters, type EnvironmentSource, type RateLimiterRegistry } from '@skillopt/backends-kit';
import { createClaudeCodeAgentRunner } from './agent-runner.js';
import { createClaudeCodeChatModel } from './chat-model.js';
import { claudeCodeBackendConfigSchema, type ClaudeCodeBackendConfig, type ClaudeCodeBackendConfigInput } from './config-schema.js';
import { apiKeyVariables, readApiOrigin, readCredential } from './credentials.js';
import { originalConfigFormat } from './original-config-format.js';
import { checkPermissionConfig, processRunsAsRoot } from './permissions.js';
import { priceTable } from './price-table.js';
import { ANTHROPIC_API_KEY_VARIABLE, CLAUDE_CODE_OAUTH_TOKEN_VARIABLE, CLAUDE_CODE_PROVIDER } from './provider.js';
import { resolveRoleSettings } from './role-settings.js';

export const manifest: PackageManifest<'backend', ClaudeCodeBackendConfig> = {
  kind: 'backend',
  id: 'claude-code',
  specificationVersion: 'v1',
  configSchema: claudeCodeBackendConfigSchema,
  description:
    'The Claude Code CLI as an agent target (the skill as a project skill or CLAUDE.md) and as a chat model with its tools off. Key: ANTHROPIC_API_KEY (or CLAUDE_CODE_OAUTH_TOKEN).',
  originalConfig: originalConfigFormat,
  credentials: {
    variables: [
      { name: ANTHROPIC_API_KEY_VARIABLE, usedBy: 'Claude Code (Anthropic API key)' },
      { name: CLAUDE_CODE_OAUTH_TOKEN_VARIABLE, usedBy: 'Claude Code (subscription token)' },
    ],
    variableFor: (_section, role) => (role === undefined ? ANTHROPIC_API_KEY_VARIABLE : (apiKeyVariables(role)[0] as string)),
  },
};

/** What an embedding application or a test may hand the backend besides its config section. */
export interface ClaudeCodeBackendRuntime {
  /** Where the credential and the API origin are read from. Default: process.env. */
  environment?: EnvironmentSource;
  /** Where the shared limiters live. Default: this process's. */
  rateLimiters?: RateLimiterRegistry;
  /** Whether this process runs as root (for the bypassPermissions check). Default: asked of the process. */
  runsAsRoot?: boolean;
}

export interface ClaudeCodeBackend extends Backend {
  readonly id: 'claude-code';
  createAgentRunner(request: ModelRequest): AgentRunner;
  createChatModel(request: ModelRequest): ChatModel;
}

/**
 * The claude-code backend: agent runners for targets, chat models for the optimizer and the judge.
 * Both read their credential when created (a missing one fails there, before any run), and the
 * processes of every runner and model that reach the same API origin with the same key share one
 * limit on how many run at once (`max_concurrency`).
 */
export function createBackend(config: ClaudeCodeBackendConfigInput | ClaudeCodeBackendConfig = {}, runtime: ClaudeCodeBackendRuntime = {}): ClaudeCodeBackend {
  const settings = parseBackendConfig(claudeCodeBackendConfigSchema, config, 'claude-code');
  checkPermissionConfig(settings, runtime.runsAsRoot ?? processRunsAsRoot());
  const environment = runtime.environment ?? process.env;
  const rateLimiters = runtime.rateLimiters ?? processRateLimiters;

  const partsFor = (request: ModelRequest) => {
    const roleSettings = resolveRoleSettings(settings, request.role, request.modelId);
    const credential = readCredential(environment, request.role);
    const apiOrigin = readApiOrigin(environment, request.role, roleSettings.baseUrl);
    const limiter = rateLimiters.limiterFor(
      { provider: CLAUDE_CODE_PROVIDER, endpoint: apiOrigin ?? 'https://api.anthropic.com', credential: credential.value, backendId: 'claude-code' },
      { maxConcurrency: settings.max_concurrency },
    );
    return { config: settings, settings: roleSettings, credential, apiOrigin, limiter };
  };

  return {
    specificationVersion: 'v1',
    id: 'claude-code',
    createAgentRunner: (request) => createClaudeCodeAgentRunner(partsFor(request)),
    createChatModel: (request) => createClaudeCodeChatModel(partsFor(request)),
  };
}

/** The package entry as one value (what core loads by name). */
export const claudeCodeBackendPackage: BackendPackage<ClaudeCodeBackendConfig> = { manifest, createBackend, priceTable };
