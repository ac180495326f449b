import type { AgentRunner, AgentRunRequest, ModelCapabilities } from '@skillopt/contract';
import { runAgentHarness, withTemporaryWorkspace, type HarnessDefinition, type RateLimiter } from '@skillopt/backends-kit';
import { codexExecArguments } from './codex-arguments.js';
import { readCodexTranscript } from './codex-transcript.js';
import { CODEX_INHERITED_VARIABLES, codexEnvironment } from './isolated-environment.js';
import { CODEX_PROVIDER } from './provider.js';
import type { CodexRoleSettings } from './role-settings.js';
import { sandboxFor } from './sandbox-mode.js';
import { codexSkillInstallation } from './skill-placement.js';

/**
 * What the agent can do: its shell and file tools, images in its workspace (Codex's view_image
 * tool), and Codex reports the tokens of every run. A run can go inside bubblewrap
 * (`isolation: 'sandbox'`), with Codex's own sandbox nested in it (ADR 0014).
 */
export const CODEX_AGENT_CAPABILITIES: ModelCapabilities = Object.freeze({ tools: true, images: true, reportedUsage: true, sandboxedRuns: true });

/** Codex flushes nothing worth waiting for on SIGTERM: a second is enough before SIGKILL. */
export const CODEX_TERMINATION_GRACE_MS = 1_000;

export interface CodexAgentRunnerOptions {
  settings: CodexRoleSettings;
  apiKey: string;
  /** The limiter of the endpoint and key; every run waits for it. */
  rateLimiter?: RateLimiter;
  defaultConcurrency?: number;
}

/**
 * Codex as an agent target: one rollout is one `codex exec` in the caller's workspace, with the
 * skill installed where Codex reads it (`skill_placement`), its state in a fresh CODEX_HOME of its
 * own (removed afterwards, so no run sees another's sessions, caches or login), the environment by
 * allowlist, and the sandbox the request's `workspaceAccess` needs; with `isolation: 'sandbox'`
 * inside bubblewrap too (backends-kit's flow). The answer is the last agent message of its JSON
 * events; the usage its `turn.completed` counts.
 */
export function createCodexAgentRunner(options: CodexAgentRunnerOptions): AgentRunner {
  const { settings } = options;
  const definitionFor = (home: string): HarnessDefinition => ({
    provider: CODEX_PROVIDER,
    modelId: settings.modelId,
    capabilities: CODEX_AGENT_CAPABILITIES,
    skillInstallation: codexSkillInstallation(settings.skillPlacement, settings.skillName),
    // Codex cannot narrow its shell to some programs; its sandbox (workspace-write or read-only,
    // nested inside ours when sandboxed) confines every command to the workspace instead, which is
    // what `allowedCommands` is for, so a request naming commands gets no warning, unless the
    // config turned that sandbox off.
    limitsCommands: settings.sandbox !== 'danger-full-access',
    commandLine: ({ request, workspace }) => ({
      command: settings.command,
      args: codexExecArguments({
        settings,
        workingDirectory: workspace,
        sandbox: sandboxFor(settings.sandbox, request.workspaceAccess),
        skillListing: settings.skillPlacement === 'skills-folder',
      }),
      allowedEnvironmentVariables: CODEX_INHERITED_VARIABLES,
      environment: codexEnvironment(home, options.apiKey, settings.command),
      secrets: [options.apiKey],
      // Its CODEX_HOME, which is its HOME too: in a sandboxed run its only state.
      statePaths: [home],
    }),
    readTranscript: readCodexTranscript,
    terminationGraceMs: CODEX_TERMINATION_GRACE_MS,
    ...(options.rateLimiter ? { rateLimiter: options.rateLimiter } : {}),
  });
  return {
    specificationVersion: 'v1',
    provider: CODEX_PROVIDER,
    modelId: settings.modelId,
    capabilities: CODEX_AGENT_CAPABILITIES,
    ...(options.defaultConcurrency === undefined ? {} : { defaultConcurrency: options.defaultConcurrency }),
    run: (request: AgentRunRequest) => withTemporaryWorkspace('skillopt-codex-home', (home) => runAgentHarness(definitionFor(home), request)),
  };
}
