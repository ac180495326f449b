import { z } from 'zod';
import { type PackageManifest } from '@skillopt/contract';

/*
 * Stand-ins for env and backend packages, as a test of core needs them: a manifest whose
 * configSchema is a zod schema written here. They mirror the settings the real packages are
 * expected to have (upstream-envs.md, upstream-backends.md), no more.
 */

export function envManifest(id: string, schema: PackageManifest['configSchema']): PackageManifest<'env'> {
  return { kind: 'env', id, specificationVersion: 'v1', configSchema: schema };
}

export function backendManifest(id: string, schema: PackageManifest['configSchema']): PackageManifest<'backend'> {
  return { kind: 'backend', id, specificationVersion: 'v1', configSchema: schema };
}

export const searchqaEnv = envManifest(
  'searchqa',
  z.strictObject({
    max_turns: z.number().int().min(1).default(1),
    max_completion_tokens: z.number().int().min(1).default(16384),
    limit: z.number().int().min(0).default(0),
  }),
);

export const spreadsheetbenchEnv = envManifest(
  'spreadsheetbench',
  z.strictObject({
    data_root: z.string().optional(),
    mode: z.enum(['single', 'multi']).default('multi'),
    max_turns: z.number().int().min(1).default(30),
    max_completion_tokens: z.number().int().min(1).default(16384),
  }),
);

const openAiSettings = {
  preset: z.enum(['azure', 'qwen', 'minimax', 'deepseek', 'vllm', 'ollama', 'llama-cpp']).optional(),
  endpoint: z.string().optional(),
  base_url: z.string().optional(),
  api_version: z.string().optional(),
  auth_mode: z.string().optional(),
  ad_scope: z.string().optional(),
  managed_identity_client_id: z.string().optional(),
  thinking_mode: z.enum(['enabled', 'disabled', 'server_default']).optional(),
  timeout_seconds: z.number().positive().default(300),
};

export const openAiBackend = backendManifest(
  'openai',
  z.strictObject({
    ...openAiSettings,
    optimizer: z.strictObject(openAiSettings).optional(),
    target: z.strictObject(openAiSettings).optional(),
  }),
);

export const codexBackend = backendManifest(
  'codex',
  z.strictObject({
    path: z.string().default('codex'),
    sandbox: z.enum(['read-only', 'workspace-write', 'danger-full-access']).default('workspace-write'),
  }),
);
