import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createSimulatorServer, type SimulatorServer } from '@skillopt/backends-sim';
import { DEEPSEEK_PRESET, PACKAGE_ROOT, runNode, SLEEP_BIN } from './openclaw-fixtures';

/**
 * The DeepSeek preset as `skillopt-sleep --config` reads it: the openai backend (a devDependency
 * here, resolved from this package's folder as a user's installation resolves it beside the
 * plugin) with DeepSeek's preset, its key from DEEPSEEK_API_KEY only. Without the key a night stops
 * before any request; with one, the whole night runs against the simulator on loopback.
 */

const KEY = 'sk-openclaw-test-not-a-real-key';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'plugin-openclaw-preset-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A loopback front that records each request's Authorization header and passes it on (or answers 500 with no upstream). */
async function recordingFront(upstream: string | undefined): Promise<{ url: string; authorizations: string[]; close(): Promise<void> }> {
  const authorizations: string[] = [];
  const server = http.createServer((request, response) => {
    authorizations.push(request.headers.authorization ?? '');
    if (upstream === undefined) {
      response.writeHead(500).end();
      return;
    }
    const target = new URL(request.url ?? '/', upstream);
    const forwarded = http.request(target, { method: request.method, headers: request.headers }, (reply) => {
      response.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(response);
    });
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    authorizations,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Every file under `folder`, for the check that no key was written anywhere. */
function filesUnder(folder: string): string[] {
  return (readdirSync(folder, { recursive: true }) as string[]).map((entry) => path.join(folder, entry)).filter((file) => statSync(file).isFile());
}

describe('presets/deepseek.json', () => {
  it('selects the openai backend with DeepSeek for both roles, and holds no key', () => {
    expect(JSON.parse(readFileSync(DEEPSEEK_PRESET, 'utf8'))).toEqual({
      model: { target: 'deepseek-chat', optimizer: 'deepseek-chat', target_backend: 'openai', optimizer_backend: 'openai' },
      backends: { openai: { preset: 'deepseek' } },
    });
  });

  it('without DEEPSEEK_API_KEY stops with exit 2 naming the variable, before any request', async () => {
    const plain = await runNode(SLEEP_BIN, ['dry-run', '--persona', 'researcher', '--config', DEEPSEEK_PRESET, '--out', path.join(root, 'night')], {
      cwd: PACKAGE_ROOT,
      environment: { HOME: root },
    });
    expect(plain).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'skillopt-sleep: backends.openai: no API key for the target in the environment: set TARGET_DEEPSEEK_API_KEY or DEEPSEEK_API_KEY (the deepseek preset sends every request with a key)\n',
    });

    // The same against a loopback endpoint: it is never asked.
    const front = await recordingFront(undefined);
    try {
      const pointed = await runNode(
        SLEEP_BIN,
        [
          'dry-run',
          '--persona',
          'researcher',
          '--config',
          DEEPSEEK_PRESET,
          '--set',
          `backends.openai.base_url=${front.url}`,
          '--out',
          path.join(root, 'night'),
        ],
        { cwd: PACKAGE_ROOT, environment: { HOME: root } },
      );
      expect(pointed.code).toBe(2);
      expect(pointed.stderr).toContain('DEEPSEEK_API_KEY');
    } finally {
      await front.close();
    }
    expect(front.authorizations).toEqual([]);
  });

  describe('with a key, against the simulator on loopback', () => {
    let simulator: SimulatorServer;
    beforeAll(async () => {
      simulator = await createSimulatorServer({ seed: 7 });
    });
    afterAll(() => simulator.close());

    it('runs a whole night: every request to the base URL given with --set, with the key from the environment; the key written nowhere', async () => {
      const front = await recordingFront(simulator.origin);
      const nightDirectory = path.join(root, 'night');
      let night: Awaited<ReturnType<typeof runNode>>;
      try {
        // The simulator serves its own model ids; the preset's deepseek-chat is what DeepSeek serves.
        night = await runNode(
          SLEEP_BIN,
          [
            'dry-run',
            '--persona',
            'researcher',
            '--config',
            DEEPSEEK_PRESET,
            '--set',
            `backends.openai.base_url=${front.url}`,
            '--set',
            'model.target=sim-target',
            '--set',
            'model.optimizer=sim-optimizer',
            '--out',
            nightDirectory,
            '--json',
          ],
          { cwd: PACKAGE_ROOT, environment: { HOME: root, DEEPSEEK_API_KEY: KEY } },
        );
      } finally {
        await front.close();
      }
      expect({ code: night.code, stderr: night.stderr }).toEqual({ code: 0, stderr: '' });
      const report = JSON.parse(night.stdout);
      expect(report).toMatchObject({ type: 'result', dryRun: true, tasks: { total: 12, replayed: 12, unjudgeable: [], excluded: [] } });
      expect(front.authorizations.length).toBe(report.usage.calls);
      expect(new Set(front.authorizations)).toEqual(new Set([`Bearer ${KEY}`]));

      const ledger = readFileSync(path.join(report.runDirectory, 'ledger.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(new Set(ledger.filter((line) => line.line === 'call-started').map((line) => line.provider))).toEqual(new Set(['deepseek']));
      expect(filesUnder(root).filter((file) => readFileSync(file, 'utf8').includes(KEY))).toEqual([]);
    });
  });
});
