import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** An MCP client connected, over stdio, to the server `bin` starts with node in `home` (its HOME and working directory). */
export async function connectToMcpBin(bin: string, home: string): Promise<Client> {
  const client = new Client({ name: 'skillopt-plugin-test', version: '0.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [bin], cwd: home, env: { PATH: process.env.PATH ?? '', HOME: home }, stderr: 'pipe' }),
  );
  return client;
}
