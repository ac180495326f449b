import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectToMcpBin } from '@skillopt/sleep/testing';

/**
 * The package's own MCP bin, the one the installer registers, started as a client starts it: it
 * serves Sleep's tools over stdio and answers a call with the engine's result.
 */
test("the bin serves Sleep's tools over stdio and answers sleep_status", async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'plugin-copilot-mcp-'));
  const client = await connectToMcpBin(path.resolve(__dirname, '..', 'bin', 'skillopt-sleep-mcp-copilot.js'), home);
  try {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(8);
    const status = await client.callTool({ name: 'sleep_status', arguments: { project: home } });
    expect(status.isError).toBeFalsy();
    expect(status.structuredContent).toMatchObject({ type: 'result', exitCode: 0, status: 'ok', project: home });
  } finally {
    await client.close();
    rmSync(home, { recursive: true, force: true });
  }
});
