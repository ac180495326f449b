import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { AgentRunner, AgentRunRequest, ModelCapabilities } from '@skillopt/contract';
import { runAgentHarness, withTemporaryWorkspace, type HarnessDefinition, type RateLimiter } from '@skillopt/backends-kit';
import { copilotArguments, targetTools } from './copilot-arguments.js';
import { readCopilotTranscript, readUsageReport } from './copilot-transcript.js';
import { COPILOT_INHERITED_VARIABLES, copilotEnvironment } from './isolated-environment.js';
import { COPILOT_PROVIDER } from './provider.js';
import type { CopilotRoleSettings } from './role-settings.js';
import { copilotSkillInstallation } from './skill-placement.js';

/** What the agent can do: its shell and file tools, and Copilot reports the tokens of every run. */
export const COPILOT_AGENT_CAPABILITIES: ModelCapabilities = Object.freeze({ tools: true, images: false, reportedUsage: true });

/** Copilot writes its usage report as it ends; two seconds after SIGTERM it is killed. */
export const COPILOT_TERMINATION_GRACE_MS = 2_000;

/** The files of one run's private folder: Copilot's state (COPILOT_HOME) and its usage report. */
export interface CopilotRunFolder {
  home: string;
  usageFile: string;
}

/** A fresh private folder for one run, removed when `work` ends. */
export function withCopilotRunFolder<T>(prefix: string, work: (folder: CopilotRunFolder) => Promise<T>): Promise<T> {
  return withTemporaryWorkspace(prefix, async (directory) => {
    const home = path.join(directory, 'home');
    await mkdir(home);
    return work({ home, usageFile: path.join(directory, 'usage.json') });
  });
}

export interface CopilotAgentRunnerOptions {
  settings: CopilotRoleSettings;
  apiKey: string;
  /** The limiter of the endpoint and key; every run waits for it. */
  rateLimiter?: RateLimiter;
  defaultConcurrency?: number;
}

/**
 * Copilot as an agent target: one rollout is one `copilot` run in BYOK offline mode in the caller's
 * workspace, with the skill installed where Copilot reads it (`skill_placement`), its state in a
 * fresh COPILOT_HOME of its own (removed afterwards, so no run sees another's sessions or config),
 * the environment by allowlist, the tools the request's `workspaceAccess` needs, and the usage
 * report of `--usage-output-file`. The answer is the last agent message of its JSON events.
 */
export function createCopilotAgentRunner(options: CopilotAgentRunnerOptions): AgentRunner {
  const { settings } = options;
  const definitionFor = (folder: CopilotRunFolder): HarnessDefinition => ({
    provider: COPILOT_PROVIDER,
    modelId: settings.modelId,
    capabilities: COPILOT_AGENT_CAPABILITIES,
    skillInstallation: copilotSkillInstallation(settings.skillPlacement, settings.skillName),
    commandLine: ({ request }) => {
      const write = request.workspaceAccess === 'write';
      return {
        command: settings.command,
        args: copilotArguments({
          availableTools: targetTools(settings.availableTools, { write, skillsFolder: settings.skillPlacement === 'skills-folder' }),
          usageFile: folder.usageFile,
          reasoningEffort: settings.reasoningEffort,
          write,
          allowAllTools: settings.allowAllTools,
        }),
        allowedEnvironmentVariables: COPILOT_INHERITED_VARIABLES,
        environment: copilotEnvironment(settings, folder.home, options.apiKey),
        secrets: [options.apiKey],
      };
    },
    readTranscript: () => readCopilotTranscript(() => readUsageReport(folder.usageFile)),
    terminationGraceMs: COPILOT_TERMINATION_GRACE_MS,
    ...(options.rateLimiter ? { rateLimiter: options.rateLimiter } : {}),
  });
  return {
    specificationVersion: 'v1',
    provider: COPILOT_PROVIDER,
    modelId: settings.modelId,
    capabilities: COPILOT_AGENT_CAPABILITIES,
    ...(options.defaultConcurrency === undefined ? {} : { defaultConcurrency: options.defaultConcurrency }),
    run: (request: AgentRunRequest) => withCopilotRunFolder('skillopt-copilot-home', (folder) => runAgentHarness(definitionFor(folder), request)),
  };
}
