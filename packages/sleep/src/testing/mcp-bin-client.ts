import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/**
 * The part of the SDK's client a plugin's test uses. Named here rather than as the SDK's `Client`,
 * whose declarations need the DOM's types, which a package's consumers may not have.
 */
export interface McpBinClient {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(request: { name: string; arguments?: Record<string, unknown> }): Promise<{ isError?: unknown; structuredContent?: unknown; content?: unknown }>;
  close(): Promise<void>;
}

/** An MCP client connected, over stdio, to the server `bin` starts with node in `home` (its HOME and working directory). */
export async function connectToMcpBin(bin: string, home: string): Promise<McpBinClient> {
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
