import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { readRunLedger, readRunOverview } from '@skillopt/core';
import { createSimulatorServer, type SimulatorServer } from '@skillopt/backends-sim';
import { createEnvironment } from '@skillopt/env-searchqa';

// A paid call the provider received is in the ledger, whenever the run is killed: the demo is
// trained through the OpenAI backend and a loopback proxy in front of the simulated server; the
// proxy counts the completions it receives, and from a chosen one on it holds every request
// unanswered and kills the training process with SIGKILL once no new request has come for a
// moment (so no call is caught between its ledger line and its request: such a call would be an
// incomplete entry the provider never saw, an over-count). Each time the run is resumed, until it
// finishes. Then the ledger's paid calls (its entries that are not cache hits, incomplete ones
// included) must equal the requests the proxy received: nothing a provider could bill is missing.
const repositoryRoot = path.resolve(__dirname, '..', '..', '..');
const cli = path.join(__dirname, '..', 'bin', 'run.js');

interface CountingProxy {
  url: string;
  received: number;
  /** Called with the running count before a request is forwarded; return true to hold it unanswered. */
  onRequest: (count: number) => boolean;
  close(): Promise<void>;
}

async function startCountingProxy(upstream: string): Promise<CountingProxy> {
  const proxy: CountingProxy = { url: '', received: 0, onRequest: () => false, close: async () => undefined };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const isCompletion = request.method === 'POST' && (request.url ?? '').endsWith('/chat/completions');
      if (isCompletion) {
        proxy.received += 1;
        if (proxy.onRequest(proxy.received)) return; // held: the caller is killed while it waits
      }
      const forwarded = http.request(
        `${upstream}${(request.url ?? '').replace(/^\/v1/, '')}`,
        { method: request.method, headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forwarded.on('error', () => response.destroy());
      forwarded.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  proxy.url = `http://127.0.0.1:${address.port}/v1`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

function train(args: string[]): { exited: Promise<number | null>; kill: () => void } {
  const child = spawn(process.execPath, [cli, 'train', ...args], { cwd: repositoryRoot, env: { ...process.env, NODE_OPTIONS: '' }, stdio: 'ignore' });
  return { exited: new Promise((resolve) => child.on('close', (code) => resolve(code))), kill: () => child.kill('SIGKILL') };
}

describe('a run killed with SIGKILL at any instant', () => {
  let simulator: SimulatorServer;
  let proxy: CountingProxy;
  let outputDirectory: string;
  beforeAll(async () => {
    const environment = await createEnvironment({ split_mode: 'split_dir', split_dir: path.join(repositoryRoot, 'datasets/demo') });
    const items = (await Promise.all((['train', 'val', 'test'] as const).map((split) => environment.loadSplit(split)))).flat();
    simulator = await createSimulatorServer({ port: 0, items });
    proxy = await startCountingProxy(simulator.url);
    outputDirectory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-kill-'));
  });
  afterAll(async () => {
    await proxy.close();
    await simulator.close();
    rmSync(outputDirectory, { recursive: true, force: true });
  });

  it('resumes to the end with a ledger line for every request the provider received', async () => {
    const runDirectory = path.join(outputDirectory, 'run');
    const common = ['--set', `backends.openai.base_url=${proxy.url}`, '--set', 'train.num_epochs=1'];
    // Killed during the baseline, in the middle of a step's rollouts, and during an optimizer stage.
    const killAt = [5, 70, 140];
    let sessions = 0;
    for (const [index, threshold] of killAt.entries()) {
      const session = train(
        index === 0 ? ['--config', 'configs/features/openai-via-sim.yaml', ...common, '--out', runDirectory] : ['--resume', runDirectory, ...common],
      );
      let quiet: NodeJS.Timeout | undefined;
      proxy.onRequest = (count) => {
        if (count < threshold) return false;
        clearTimeout(quiet);
        quiet = setTimeout(session.kill, 400);
        return true;
      };
      expect(await session.exited).toBeNull(); // killed by the signal, not exited
      sessions += 1;
    }
    proxy.onRequest = () => false;
    const last = train(['--resume', runDirectory, ...common]);
    expect(await last.exited).toBe(0);
    sessions += 1;

    const overview = await readRunOverview(runDirectory);
    expect(overview.status).toBe('finished');
    const paid = (await readRunLedger(runDirectory)).filter((entry) => !entry.cacheHit);
    expect(sessions).toBe(4);
    // Every request in flight at a kill (up to the rollout concurrency) is an incomplete entry.
    expect(paid.filter((entry) => entry.outcome === 'incomplete').length).toBeGreaterThanOrEqual(killAt.length);
    expect(paid.length).toBe(proxy.received);
  });
});
