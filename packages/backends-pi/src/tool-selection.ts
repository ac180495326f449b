import type { PiTool } from './config-schema.js';

/** Reading and searching files: what every run gets unless the config names its own tools. */
const READ_TOOLS: readonly PiTool[] = ['read', 'grep', 'find', 'ls'];
/** Editing files too, for a request that asks to change its workspace. */
const WRITE_TOOLS: readonly PiTool[] = ['edit', 'write'];

/**
 * The built-in tools of one run: the configured list when there is one (the request does not
 * change it), else the read tools, with the edit tools when the request asks for write access.
 * Never bash by default: Pi runs commands unsandboxed, as this process's user.
 */
export function toolsFor(configured: readonly PiTool[] | undefined, workspaceAccess: 'read' | 'write' | undefined): readonly PiTool[] {
  if (configured !== undefined) return configured;
  return workspaceAccess === 'write' ? [...READ_TOOLS, ...WRITE_TOOLS] : READ_TOOLS;
}
