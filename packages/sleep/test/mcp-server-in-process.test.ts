import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createSleepMcpServer } from '../src/mcp/sleep-mcp-server.js';

// createSleepMcpServer in this process, on the SDK's in-memory transport: its options, the folder a
// call's project defaults to and the environment its defaults come from, not this process's.

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'skillopt-sleep-mcp-memory-'));
  mkdirSync(path.join(home, 'app'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

async function connected(runtime: 'copilot' | 'devin'): Promise<Client> {
  const server = createSleepMcpServer({
    runtime,
    environment: { HOME: home, SKILLOPT_SLEEP_HOME: path.join(home, 'state') },
    workingDirectory: path.join(home, 'app'),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'in-process', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

type Structured = Record<string, unknown> & { sources?: Array<{ source: string; locations: string[] }> };

describe('createSleepMcpServer', () => {
  test('a call reads its defaults from the options: the project from workingDirectory, the state and sources from environment', async () => {
    const client = await connected('devin');
    try {
      const status = (await client.callTool({ name: 'sleep_status', arguments: {} })) as CallToolResult & { structuredContent: Structured };
      expect(status.structuredContent).toMatchObject({
        status: 'ok',
        project: path.join(home, 'app'),
        stateDirectory: expect.stringContaining(path.join(home, 'state', 'projects')),
        nights: 0,
      });
      const harvest = (await client.callTool({ name: 'sleep_harvest', arguments: {} })) as CallToolResult & { structuredContent: Structured };
      expect(harvest.structuredContent.sources?.map((report) => report.source)).toEqual(['devin']);
      for (const location of harvest.structuredContent.sources?.[0]?.locations ?? ['none']) expect(location.startsWith(home)).toBe(true);
      const night = (await client.callTool({ name: 'sleep_dry_run', arguments: { persona: 'programmer' } })) as CallToolResult & {
        structuredContent: Structured & { runDirectory?: string };
      };
      expect(night.structuredContent).toMatchObject({ status: 'ok', outcome: 'accepted' });
      expect(night.structuredContent.runDirectory?.startsWith(path.join(home, 'state', 'dry-runs'))).toBe(true);
    } finally {
      await client.close();
    }
  });

  test('refuses a runtime it does not know', () => {
    expect(() => createSleepMcpServer({ runtime: 'cursor' as 'copilot' })).toThrow('runtime is one of copilot, devin, got "cursor"');
  });
});
