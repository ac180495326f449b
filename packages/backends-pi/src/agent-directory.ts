import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PI_CHILD_API_KEY_VARIABLE, PI_MODEL_PROVIDER_ID } from './provider.js';
import type { PiRoleSettings } from './role-settings.js';

/** What a run's models.json says of its one model. */
export interface PiModelEntry {
  /** Whether Pi may ask for thinking (it sends a reasoning effort only for a reasoning model). */
  reasoning: boolean;
  /** The most output tokens a request asks for; absent: Pi's default for a custom model. */
  maxTokens?: number | undefined;
}

/**
 * models.json of one run: the `skillopt` provider at the role's base URL and API, its key read
 * from the variable only the child has (Pi resolves an `apiKey` that names a variable at run
 * time, so the key is never written to disk), with the one model of the role. The system prompt
 * goes as a `system` message (`supportsDeveloperRole: false`), which every OpenAI-compatible
 * server understands, OpenAI's own included.
 */
export function piModelsFile(settings: PiRoleSettings, model: PiModelEntry): object {
  return {
    providers: {
      [PI_MODEL_PROVIDER_ID]: {
        baseUrl: settings.baseUrl,
        api: settings.api,
        apiKey: PI_CHILD_API_KEY_VARIABLE,
        compat: { supportsDeveloperRole: false },
        models: [{ id: settings.modelId, reasoning: model.reasoning, ...(model.maxTokens === undefined ? {} : { maxTokens: model.maxTokens }) }],
      },
    },
  };
}

/**
 * settings.json of one run. Pi's own retries are off (a failed call is retried by the layer that
 * owns it: core for an agent run, this package for a chat call), as is compaction (its summary
 * calls report no usage, so a run that fills the context fails rather than spends unreported
 * tokens); no install telemetry, no startup header.
 */
export const PI_RUN_SETTINGS = Object.freeze({
  retry: { enabled: false, provider: { maxRetries: 0 } },
  compaction: { enabled: false },
  enableInstallTelemetry: false,
  quietStartup: true,
});

/** Writes a fresh Pi agent directory (PI_CODING_AGENT_DIR) under `home`, and returns its path. */
export async function writeAgentDirectory(home: string, settings: PiRoleSettings, model: PiModelEntry): Promise<string> {
  const directory = path.join(home, 'agent');
  await mkdir(directory, { recursive: true });
  await Promise.all([
    writeFile(path.join(directory, 'models.json'), JSON.stringify(piModelsFile(settings, model))),
    writeFile(path.join(directory, 'settings.json'), JSON.stringify(PI_RUN_SETTINGS)),
  ]);
  return directory;
}
