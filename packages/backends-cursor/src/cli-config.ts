import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SandboxSetting } from './config-schema.js';

/** What one Cursor process may do, as its private `cli-config.json` says it. */
export type CursorRunKind = 'read' | 'write' | 'chat';

/** The file Cursor reads its settings from, inside the folder CURSOR_CONFIG_DIR names. */
export const CLI_CONFIG_FILE = 'cli-config.json';

/**
 * The permissions of each kind of run, in Cursor's rule syntax. MCP servers are denied always (no
 * run configures one, and a user's would be outside the run config). A read run may read its
 * workspace and nothing may be written; a write run may edit, confined to the workspace by the
 * sandbox; a chat call may neither read nor write: it answers from the prompt alone, as the
 * original's Sleep backend did.
 */
const DENIED: Readonly<Record<CursorRunKind, readonly string[]>> = {
  read: ['Write(**)', 'Mcp(*:*)'],
  write: ['Mcp(*:*)'],
  chat: ['Read(**)', 'Write(**)', 'Mcp(*:*)'],
};

/**
 * The whole `cli-config.json` of one run: nothing inherited from the user's own file (CURSOR_CONFIG_DIR
 * points at a fresh folder), tool approval by allowlist, network for the agent's commands limited to
 * what this file allows (nothing), and no attribution in commits an agent might make.
 */
export function cursorCliConfig(kind: CursorRunKind, sandbox: SandboxSetting): Record<string, unknown> {
  return {
    version: 1,
    editor: { vimMode: false },
    permissions: { allow: [], deny: [...DENIED[kind]] },
    approvalMode: 'allowlist',
    sandbox: { mode: sandbox, networkAccess: 'user_config_only', networkAllowlist: [] },
    network: { useHttp1ForAgent: false },
    hasChangedDefaultModel: false,
    attribution: { attributeCommitsToAgent: false, attributePRsToAgent: false },
  };
}

/** Writes the run's config folder (`<runtime>/config/cli-config.json`) and returns the folder. */
export async function writeCursorRuntime(runtimeDirectory: string, kind: CursorRunKind, sandbox: SandboxSetting): Promise<string> {
  const configDirectory = path.join(runtimeDirectory, 'config');
  await mkdir(configDirectory, { recursive: true });
  await writeFile(path.join(configDirectory, CLI_CONFIG_FILE), `${JSON.stringify(cursorCliConfig(kind, sandbox), null, 2)}\n`, 'utf8');
  return configDirectory;
}
