import path from 'node:path';
import type { Backend, BackendPackage, ChatModel, ModelRequest, PackageManifest } from '@skillopt/contract';
import { parseBackendConfig } from '@skillopt/backends-kit';
import { createHandoffChatModel } from './chat-model.js';
import { handoffBackendConfigSchema, type HandoffBackendConfig, type HandoffBackendConfigInput } from './config-schema.js';
import { handoffFolderAt } from './handoff-folder.js';

export const manifest: PackageManifest<'backend', HandoffBackendConfig> = {
  kind: 'backend',
  id: 'handoff',
  specificationVersion: 'v1',
  configSchema: handoffBackendConfigSchema,
  // Unset, run setup points `directory` into the run's folder, where --resume (or a Sleep command run again) finds the answers.
  filesDirectoryKey: 'directory',
  description:
    "No model process: each request is written to a folder for the user's own agent (or a person) to answer, the run stops with exit code 3, and `--resume` goes on with the answers. No key.",
};

/** What an embedding application or a test may hand the backend besides its config section. */
export interface HandoffBackendRuntime {
  /** What a relative `directory` is resolved against. Default: the process's working directory. */
  workingDirectory?: string;
}

/**
 * The folder when `directory` is unset: run setup sets it for a run that has a folder of its own
 * (manifest.filesDirectoryKey), so this is for a command without one (`skillopt eval`) and a
 * program's own call.
 */
const DIRECTORY_WITHOUT_A_RUN = 'skillopt-handoff';

export interface HandoffBackend extends Backend {
  readonly id: 'handoff';
  /** The folder where its requests wait. */
  readonly directory: string;
  createChatModel(request: ModelRequest): ChatModel;
}

/**
 * The handoff backend: chat models for any role that write their requests to one folder and
 * answer from the answers found there. Every role of a run, and every backend of the process on
 * the same folder, shares the folder and its index.
 */
export function createBackend(config: HandoffBackendConfigInput | HandoffBackendConfig = {}, runtime: HandoffBackendRuntime = {}): HandoffBackend {
  const settings = parseBackendConfig(handoffBackendConfigSchema, config, 'handoff');
  const directory = path.resolve(runtime.workingDirectory ?? process.cwd(), settings.directory ?? DIRECTORY_WITHOUT_A_RUN);
  const folder = handoffFolderAt(directory);
  return {
    specificationVersion: 'v1',
    id: 'handoff',
    directory,
    createChatModel: (request) => createHandoffChatModel({ folder, role: request.role, modelId: request.modelId ?? settings.model }),
  };
}

/** The package entry as one value (what core loads by name). */
export const handoffBackendPackage: BackendPackage<HandoffBackendConfig> = { manifest, createBackend };
