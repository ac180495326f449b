import type { AgentRunner, AgentRunRequest, ModelCapabilities } from '@skillopt/contract';
import { backendConfigError, runAgentHarness, withTemporaryWorkspace, type HarnessDefinition, type RateLimiter } from '@skillopt/backends-kit';
import { writeCursorRuntime } from './cli-config.js';
import { cursorArguments } from './command-arguments.js';
import { readCursorTranscript } from './cursor-transcript.js';
import { CURSOR_INHERITED_VARIABLES, cursorEnvironment } from './isolated-environment.js';
import { CURSOR_PROVIDER } from './provider.js';
import type { CursorRoleSettings } from './role-settings.js';
import { classifiedCrash } from './run-failure.js';
import { cursorSkillInstallation } from './skill-placement.js';

/**
 * What the agent can do: its file tools in its workspace. Whether usage is reported is left unsaid:
 * Cursor's token counts are read when its result event carries them, but the driver was never run
 * against the real CLI, so neither answer is promised.
 */
export const CURSOR_AGENT_CAPABILITIES: ModelCapabilities = Object.freeze({ tools: true, images: false });

/** Cursor's CLI is a Node program; a second is enough for it to stop before SIGKILL. */
export const CURSOR_TERMINATION_GRACE_MS = 1_000;

export interface CursorAgentRunnerOptions {
  settings: CursorRoleSettings;
  apiKey: string;
  /** The limiter of the key; every run waits for it. */
  rateLimiter?: RateLimiter;
  defaultConcurrency?: number;
}

/**
 * Cursor as an agent target: one rollout is one `cursor-agent -p` in the caller's workspace, with
 * the skill installed where Cursor reads it (`skill_placement`), its state in a fresh folder of its
 * own (config with the run's permissions, data, home; removed afterwards), the environment by
 * allowlist, and Ask mode unless the request asks to edit its workspace (then `--force` under the
 * sandbox; with the sandbox disabled such a request is refused, never run unconfined). The answer
 * is the last `result` event's text, and nothing else.
 */
export function createCursorAgentRunner(options: CursorAgentRunnerOptions): AgentRunner {
  const { settings } = options;
  const definitionFor = (runtimeDirectory: string, configDirectory: string): HarnessDefinition => ({
    provider: CURSOR_PROVIDER,
    modelId: settings.modelId,
    capabilities: CURSOR_AGENT_CAPABILITIES,
    skillInstallation: cursorSkillInstallation(settings.skillPlacement, settings.skillName),
    commandLine: ({ request, workspace }) => ({
      command: settings.command,
      args: cursorArguments({ modelId: settings.modelId, workspace, access: request.workspaceAccess ?? 'read', sandbox: settings.sandbox }),
      allowedEnvironmentVariables: CURSOR_INHERITED_VARIABLES,
      environment: cursorEnvironment({ directory: runtimeDirectory, configDirectory }, options.apiKey),
      secrets: [options.apiKey],
    }),
    readTranscript: readCursorTranscript,
    terminationGraceMs: CURSOR_TERMINATION_GRACE_MS,
    ...(options.rateLimiter ? { rateLimiter: options.rateLimiter } : {}),
  });
  return {
    specificationVersion: 'v1',
    provider: CURSOR_PROVIDER,
    modelId: settings.modelId,
    capabilities: CURSOR_AGENT_CAPABILITIES,
    ...(options.defaultConcurrency === undefined ? {} : { defaultConcurrency: options.defaultConcurrency }),
    async run(request: AgentRunRequest) {
      const access = request.workspaceAccess ?? 'read';
      if (access === 'write' && settings.sandbox === 'disabled')
        throw backendConfigError(
          'cursor',
          'sandbox: disabled, and this run asks to edit its workspace: Cursor would edit it with no sandbox (--force). Enable the sandbox (the default) for envs whose agents write files.',
          { key: 'sandbox' },
        );
      return withTemporaryWorkspace('skillopt-cursor-runtime', async (runtimeDirectory) => {
        const configDirectory = await writeCursorRuntime(runtimeDirectory, access, settings.sandbox);
        return runAgentHarness(definitionFor(runtimeDirectory, configDirectory), request).catch((error: unknown) => {
          throw classifiedCrash(error);
        });
      });
    },
  };
}
