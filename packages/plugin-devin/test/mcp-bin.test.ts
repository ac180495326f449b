import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/**
 * The package's own MCP bin, the one the installer registers, started as a client starts it: it
 * serves Sleep's tools over stdio and answers a call with the engine's result.
 */
const bin = path.resolve(__dirname, '..', 'bin', 'skillopt-sleep-mcp-devin.js');

test("the bin serves Sleep's tools over stdio and answers sleep_status", async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'plugin-devin-mcp-'));
  const client = new Client({ name: 'plugin-devin-test', version: '0.0.0' });
  try {
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [bin], cwd: home, env: { PATH: process.env.PATH ?? '', HOME: home }, stderr: 'pipe' }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'sleep_adopt',
      'sleep_dry_run',
      'sleep_harvest',
      'sleep_mine',
      'sleep_run',
      'sleep_schedule',
      'sleep_status',
      'sleep_unschedule',
    ]);
    const status = await client.callTool({ name: 'sleep_status', arguments: { project: home } });
    expect(status.isError).toBeFalsy();
    expect(status.structuredContent).toMatchObject({ type: 'result', exitCode: 0, status: 'ok', project: home });
  } finally {
    await client.close();
    rmSync(home, { recursive: true, force: true });
  }
});
