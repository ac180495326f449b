import { createHarnessRunner, withTemporaryWorkspace, type HarnessDefinition, type RateLimiter } from '@skillopt/backends-kit';
import type { AgentRunner, AgentRunResult, CallWarning, TranscriptEvent } from '@skillopt/contract';
import { childEnvironment, inheritedVariables } from './child-environment.js';
import { targetArguments } from './command-arguments.js';
import type { ClaudeCodeBackendConfig } from './config-schema.js';
import type { ClaudeCodeCredential } from './credentials.js';
import { runPermissions } from './permissions.js';
import { CLAUDE_CODE_PROVIDER } from './provider.js';
import type { ClaudeCodeRoleSettings } from './role-settings.js';
import { claudeCodeSkillInstallation } from './skill-placement.js';
import { readClaudeTranscript } from './transcript-translation.js';

export interface ClaudeCodeAgentRunnerOptions {
  config: ClaudeCodeBackendConfig;
  settings: ClaudeCodeRoleSettings;
  credential: ClaudeCodeCredential;
  apiOrigin: string | undefined;
  limiter?: RateLimiter | undefined;
}

/** Claude Code stops on SIGTERM within a second or two; a longer wait only delays a timed-out run. */
const TERMINATION_GRACE_MS = 2_000;

/**
 * Claude Code as a target: each run is one `claude -p` in the caller's workspace with the skill
 * installed as a project skill or CLAUDE.md, its own fresh CLAUDE_CONFIG_DIR (removed afterwards),
 * the environment by allowlist, and the permissions the request's `workspaceAccess` and
 * `allowedCommands` ask for; with `isolation: 'sandbox'`, inside bubblewrap (backends-kit's flow).
 */
export function createClaudeCodeAgentRunner(options: ClaudeCodeAgentRunnerOptions): AgentRunner {
  const { config, settings } = options;
  const skillInstallation = claudeCodeSkillInstallation(config.skill_placement, config.skill_name);
  const definitionFor = (configDirectory: string): HarnessDefinition => ({
    provider: CLAUDE_CODE_PROVIDER,
    modelId: settings.modelId,
    capabilities: { tools: true, reportedUsage: true, images: false, announcesDispatch: false, sandboxedRuns: true },
    skillInstallation,
    limitsCommands: true,
    commandLine({ request }) {
      const permissions = runPermissions(config, {
        access: request.workspaceAccess ?? 'read',
        commands: request.allowedCommands,
        projectSkill: config.skill_placement === 'project-skill',
      });
      return {
        command: config.path,
        args: targetArguments({ modelId: settings.modelId, permissions, effort: settings.effort }),
        allowedEnvironmentVariables: inheritedVariables(config.pass_environment),
        environment: childEnvironment({
          configDirectory,
          credential: options.credential,
          apiOrigin: options.apiOrigin,
          maxThinkingTokens: settings.maxThinkingTokens,
          permissionEnvironment: permissions.environment,
        }),
        secrets: [options.credential.value],
        // Inside a sandbox (isolation: 'sandbox'), the only folder besides the workspace it writes.
        statePaths: [configDirectory],
      };
    },
    readTranscript: readClaudeTranscript,
    terminationGraceMs: TERMINATION_GRACE_MS,
    ...(options.limiter ? { rateLimiter: options.limiter } : {}),
  });
  const probe = createHarnessRunner(definitionFor(''));
  return {
    specificationVersion: 'v1',
    provider: probe.provider,
    modelId: probe.modelId,
    ...(probe.capabilities ? { capabilities: probe.capabilities } : {}),
    defaultConcurrency: config.max_concurrency,
    run: (request) =>
      withTemporaryWorkspace('skillopt-claude-config', async (configDirectory) => {
        const result = await createHarnessRunner(definitionFor(configDirectory)).run(request);
        return withDenialWarnings(result, request.allowedCommands !== undefined);
      }),
  };
}

/**
 * The tool uses the permission mode refused, as warnings: the agent tried something the run did
 * not allow. A refused Bash command of a run that named its commands was one not among them.
 */
function withDenialWarnings(result: AgentRunResult, commandsNamed: boolean): AgentRunResult {
  const final = [...result.transcript].reverse().find((event: TranscriptEvent) => event.type === 'result');
  const denials = Array.isArray(final?.permission_denials) ? (final.permission_denials as Array<Record<string, unknown>>) : [];
  if (denials.length === 0) return result;
  const tools = [...new Set(denials.map((denial) => String(denial.tool_name ?? 'a tool')))];
  const names = tools.join(', ');
  const warning: CallWarning = {
    type: 'unsupported-setting',
    field: commandsNamed && tools.includes('Bash') ? 'allowedCommands' : 'workspaceAccess',
    message: `Claude Code refused ${denials.length} tool use${denials.length === 1 ? '' : 's'} (${names}) the run's permissions do not allow`,
  };
  return { ...result, warnings: [...(result.warnings ?? []), warning] };
}
