import type { AgentRunner, AgentRunRequest, ModelCapabilities } from '@skillopt/contract';
import { runAgentHarness, withTemporaryWorkspace, type HarnessDefinition, type RateLimiter } from '@skillopt/backends-kit';
import { inheritedVariables, opencodeEnvironment } from './isolated-environment.js';
import { opencodeRunArguments } from './opencode-arguments.js';
import { readOpencodeTranscript } from './opencode-transcript.js';
import { targetPermission } from './permissions.js';
import { OPENCODE_PROVIDER } from './provider.js';
import type { OpencodeRoleSettings } from './role-settings.js';
import { runConfig } from './run-config.js';
import { opencodeSkillInstallation } from './skill-placement.js';

/**
 * What the agent can do: its file tools (and the shell when allowed), images in its workspace (its
 * read tool attaches them), and OpenCode reports the tokens of every step.
 */
export const OPENCODE_AGENT_CAPABILITIES: ModelCapabilities = Object.freeze({ tools: true, images: true, reportedUsage: true });

/** OpenCode writes nothing on SIGTERM that a run reads: a second is enough before SIGKILL. */
export const OPENCODE_TERMINATION_GRACE_MS = 1_000;

export interface OpencodeAgentRunnerOptions {
  settings: OpencodeRoleSettings;
  apiKey: string;
  /** The limiter of the endpoint and key; every run waits for it. */
  rateLimiter?: RateLimiter;
  defaultConcurrency?: number;
}

/**
 * OpenCode as an agent target: one rollout is one `opencode run` in the caller's workspace, with
 * the skill installed where OpenCode reads it (`skill_placement`), its state (config, sessions
 * database, caches, logs) in a fresh HOME and XDG folders of its own (removed afterwards), the
 * environment by allowlist, its whole config given by the run, and a deny-by-default agent
 * allowed the tools the request's `workspaceAccess` needs. The answer is the text of its last
 * step; the usage the sum of its steps' tokens.
 */
export function createOpencodeAgentRunner(options: OpencodeAgentRunnerOptions): AgentRunner {
  const { settings } = options;
  const definitionFor = (home: string): HarnessDefinition => ({
    provider: OPENCODE_PROVIDER,
    modelId: settings.modelId,
    capabilities: OPENCODE_AGENT_CAPABILITIES,
    skillInstallation: opencodeSkillInstallation(settings.skillPlacement, settings.skillName),
    commandLine: ({ request, workspace }) => {
      const permission = targetPermission({
        access: request.workspaceAccess ?? 'read',
        projectSkill: settings.skillPlacement === 'skills-folder',
        allowBash: settings.allowBash,
        allowedTools: settings.allowedTools,
      });
      const config = runConfig({ baseUrl: settings.baseUrl, modelId: settings.modelId, permission });
      return {
        command: settings.command,
        args: opencodeRunArguments({ modelId: settings.modelId, workingDirectory: workspace, variant: settings.variant }),
        allowedEnvironmentVariables: inheritedVariables(settings.passEnvironment),
        environment: opencodeEnvironment(home, JSON.stringify(config), options.apiKey),
        secrets: [options.apiKey],
      };
    },
    readTranscript: readOpencodeTranscript,
    terminationGraceMs: OPENCODE_TERMINATION_GRACE_MS,
    ...(options.rateLimiter ? { rateLimiter: options.rateLimiter } : {}),
  });
  return {
    specificationVersion: 'v1',
    provider: OPENCODE_PROVIDER,
    modelId: settings.modelId,
    capabilities: OPENCODE_AGENT_CAPABILITIES,
    ...(options.defaultConcurrency === undefined ? {} : { defaultConcurrency: options.defaultConcurrency }),
    run: (request: AgentRunRequest) => withTemporaryWorkspace('skillopt-opencode-home', (home) => runAgentHarness(definitionFor(home), request)),
  };
}
