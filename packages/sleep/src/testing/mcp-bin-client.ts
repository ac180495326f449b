import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/**
 * The part of the SDK's client a plugin's test uses. Named here rather than as the SDK's `Client`,
 * whose declarations need the DOM's types, which a package's consumers may not have.
 */
interface McpBinClient {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(request: { name: string; arguments?: Record<string, unknown> }): Promise<{ isError?: unknown; structuredContent?: unknown; content?: unknown }>;
  close(): Promise<void>;
}

/** An MCP client connected, over stdio, to the server `bin` starts with node in `home` (its HOME and working directory). */
async function connectToMcpBin(bin: string, home: string): Promise<McpBinClient> {
  const client = new Client({ name: 'skillopt-plugin-test', version: '0.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [bin], cwd: home, env: { PATH: process.env.PATH ?? '', HOME: home }, stderr: 'pipe' }),
  );
  return {
    listTools: () => client.listTools(),
    // The SDK's result type also admits the protocol's old `toolResult` shape, which a current server never sends.
    callTool: (request) => client.callTool(request) as Promise<{ isError?: unknown; structuredContent?: unknown; content?: unknown }>,
    close: () => client.close(),
  };
}

/** What a Sleep MCP bin answered: the tools it lists, and its `sleep_status` for a fresh project. */
export interface SleepMcpBinProbe {
  toolNames: string[];
  /** The temporary HOME and project the bin ran in (removed again once the probe ends). */
  project: string;
  status: Awaited<ReturnType<McpBinClient['callTool']>>;
}

/**
 * Starts a plugin's Sleep MCP bin as a client starts it, in a temporary HOME, lists its tools and
 * calls `sleep_status` on that folder, then stops it and removes the folder.
 */
export async function probeSleepMcpBin(bin: string): Promise<SleepMcpBinProbe> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sleep-mcp-bin-'));
  try {
    const client = await connectToMcpBin(bin, home);
    try {
      const { tools } = await client.listTools();
      const status = await client.callTool({ name: 'sleep_status', arguments: { project: home } });
      return { toolNames: tools.map((tool) => tool.name), project: home, status };
    } finally {
      await client.close();
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
