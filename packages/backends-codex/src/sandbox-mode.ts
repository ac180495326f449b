import type { SandboxMode } from './config-schema.js';

/**
 * The sandbox one run gets: the configured one, raised to `workspace-write` when the request asks
 * to edit its workspace. A request never lowers it (a `danger-full-access` config stays so) and
 * never raises it past `workspace-write`: only the config may turn the sandbox off.
 */
export function sandboxFor(configured: SandboxMode, workspaceAccess: 'read' | 'write' | undefined): SandboxMode {
  if (workspaceAccess === 'write' && configured === 'read-only') return 'workspace-write';
  return configured;
}
