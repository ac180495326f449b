import path from 'node:path';
import { probeSleepMcpBin } from '@skillopt/sleep/testing';

// The bin runs as its own process and loads Sleep, which a loaded machine slows many times over:
// the limit is there to catch a hang, not to time it.
jest.setTimeout(300_000);

/**
 * The package's own MCP bin, the one the installer registers, started as a client starts it: it
 * serves Sleep's tools over stdio and answers a call with the engine's result.
 */
test("the bin serves Sleep's tools over stdio and answers sleep_status", async () => {
  const probe = await probeSleepMcpBin(path.resolve(__dirname, '..', 'bin', 'skillopt-sleep-mcp-devin.js'));
  expect(probe.toolNames).toHaveLength(8);
  expect(probe.status.isError).toBeFalsy();
  expect(probe.status.structuredContent).toMatchObject({ type: 'result', exitCode: 0, status: 'ok', project: probe.project });
});
