import type { AgentRunner, AgentRunRequest, ModelCapabilities } from '@skillopt/contract';
import { runAgentHarness, withTemporaryWorkspace, type HarnessDefinition, type RateLimiter } from '@skillopt/backends-kit';
import { writeAgentDirectory } from './agent-directory.js';
import { PI_INHERITED_VARIABLES, piEnvironment } from './isolated-environment.js';
import { piArguments } from './pi-arguments.js';
import { readPiTranscript } from './pi-transcript.js';
import { PI_PROVIDER } from './provider.js';
import type { PiRoleSettings } from './role-settings.js';
import { piSkillInstallation } from './skill-placement.js';
import { toolsFor } from './tool-selection.js';

/** What the agent can do: its file tools, and Pi reports the tokens of every model request. */
export const PI_AGENT_CAPABILITIES: ModelCapabilities = Object.freeze({ tools: true, images: false, reportedUsage: true });

/** Pi disposes of its session on SIGTERM and exits; a second is enough before SIGKILL. */
export const PI_TERMINATION_GRACE_MS = 1_000;

export interface PiAgentRunnerOptions {
  settings: PiRoleSettings;
  apiKey: string;
  /** The limiter of the endpoint and key; every run waits for it. */
  rateLimiter?: RateLimiter;
  defaultConcurrency?: number;
}

/**
 * Pi as an agent target: one rollout is one `pi -p --mode json` in the caller's workspace, with
 * the skill installed where Pi reads it (`skill_placement`), its home and agent directory fresh
 * for the run (models.json with our one provider, settings.json with retries and compaction off;
 * removed afterwards, so no run sees another's or the user's sessions, keys or extensions), the
 * environment by allowlist, and the tools the request's `workspaceAccess` needs. The answer is the
 * last assistant message of its JSON events; the usage the sum of their counts.
 */
export function createPiAgentRunner(options: PiAgentRunnerOptions): AgentRunner {
  const { settings } = options;
  const definitionFor = (home: string): HarnessDefinition => ({
    provider: PI_PROVIDER,
    modelId: settings.modelId,
    capabilities: PI_AGENT_CAPABILITIES,
    skillInstallation: piSkillInstallation(settings.skillPlacement, settings.skillName),
    commandLine: async ({ request, workspace }) => {
      const agentDirectory = await writeAgentDirectory(home, settings, { reasoning: settings.thinking !== undefined && settings.thinking !== 'off' });
      return {
        command: settings.command,
        args: piArguments({
          kind: 'agent',
          settings,
          tools: toolsFor(settings.tools, request.workspaceAccess),
          skillPlacement: settings.skillPlacement,
          workspace,
        }),
        allowedEnvironmentVariables: PI_INHERITED_VARIABLES,
        environment: piEnvironment(home, agentDirectory, options.apiKey),
        secrets: [options.apiKey],
      };
    },
    readTranscript: readPiTranscript,
    terminationGraceMs: PI_TERMINATION_GRACE_MS,
    ...(options.rateLimiter ? { rateLimiter: options.rateLimiter } : {}),
  });
  return {
    specificationVersion: 'v1',
    provider: PI_PROVIDER,
    modelId: settings.modelId,
    capabilities: PI_AGENT_CAPABILITIES,
    ...(options.defaultConcurrency === undefined ? {} : { defaultConcurrency: options.defaultConcurrency }),
    run: (request: AgentRunRequest) => withTemporaryWorkspace('skillopt-pi-home', (home) => runAgentHarness(definitionFor(home), request)),
  };
}
