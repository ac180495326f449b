import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createSimulatorServer, type SimulatorServer } from '@skillopt/backends-sim';
import { malformedBodyReply, serverErrorReply, startFaultInjectingServer, type FaultInjectingServer } from '@skillopt/backends-kit/testing';
import { createEnvironment } from '@skillopt/env-searchqa';

// Issue #15, item 5: no secret in any artifact. API keys, a key in the base URL's query and a
// password in its userinfo are planted; `skillopt train` and `skillopt eval` run through both API
// backends on the paths that succeed (the simulator), that fail (a dead port), that fail now and then
// with a gateway echoing the secrets back (a fault-injecting proxy), and that are refused (userinfo).
// None of the secrets may appear in any file of a run directory, nor on the CLI's stdout or stderr.
// The keys are plain words, not `sk-…`, so only the backends' knowledge of their own secrets, not a
// pattern, can cut them out.
const repositoryRoot = path.resolve(__dirname, '..', '..', '..');
const cli = path.resolve(__dirname, '..', 'bin', 'run.js');

const OPENAI_KEY = 'planted-openai-key-4f1c9a7e';
const ANTHROPIC_KEY = 'planted-anthropic-key-8b2d6e3f';
const QUERY_SECRET = 'planted-query-secret-5c7a1e9b';
const PASSWORD = 'planted-password-2e8f4c6a';
const SECRETS = [OPENAI_KEY, ANTHROPIC_KEY, QUERY_SECRET, PASSWORD];
const ECHO = `gateway saw Authorization: Bearer ${OPENAI_KEY}, x-api-key ${ANTHROPIC_KEY}, key ${QUERY_SECRET}, url http://user:${PASSWORD}@gateway/v1?api-key=${QUERY_SECRET}`;

const SMALL_RUN = ['train.num_epochs=1', 'train.train_size=4', 'train.batch_size=2', 'evaluation.sel_env_num=3', 'evaluation.test_env_num=3'];

const BACKENDS = {
  openai: {
    config: 'configs/features/openai-via-sim.yaml',
    settings: (baseUrl: string) => [
      `backends.openai.base_url=${baseUrl}/v1?api-key=${QUERY_SECRET}`,
      'backends.openai.max_attempts=2',
      'backends.openai.timeout_seconds=5',
    ],
  },
  anthropic: {
    config: 'configs/features/anthropic-via-sim.yaml',
    settings: (baseUrl: string) => [
      `backends.anthropic.base_url=${baseUrl}/?api-key=${QUERY_SECRET}`,
      'backends.anthropic.max_retries=1',
      'backends.anthropic.timeout_ms=5000',
    ],
  },
} as const;

interface CliRun {
  code: number | null;
  output: string;
}

function runCli(args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: repositoryRoot,
      env: { ...process.env, NODE_OPTIONS: '', OPENAI_COMPATIBLE_API_KEY: OPENAI_KEY, ANTHROPIC_API_KEY: ANTHROPIC_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('close', (code) => resolve({ code, output }));
  });
}

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Where each secret turned up: `stdout/stderr` or a file of the run directory. */
function leaksIn(run: CliRun, runDirectory?: string): string[] {
  const places = [{ name: 'stdout/stderr', text: run.output }];
  if (runDirectory !== undefined && existsSync(runDirectory))
    for (const file of filesUnder(runDirectory)) places.push({ name: path.relative(runDirectory, file), text: readFileSync(file, 'utf8') });
  return places.flatMap(({ name, text }) => SECRETS.filter((secret) => text.includes(secret)).map((secret) => `${secret} in ${name}`));
}

async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('secrets planted in keys and base URLs', () => {
  let simulator: SimulatorServer;
  let proxy: FaultInjectingServer;
  let outputDirectory: string;
  let skillFile: string;
  let deadOrigin: string;
  beforeAll(async () => {
    const environment = await createEnvironment({ split_mode: 'split_dir', split_dir: path.join(repositoryRoot, 'datasets/demo') });
    const items = (await Promise.all((['train', 'val', 'test'] as const).map((split) => environment.loadSplit(split)))).flat();
    simulator = await createSimulatorServer({ port: 0, items });
    // A third of the requests fail with a body that echoes the secrets, as a careless gateway would.
    let received = 0;
    proxy = await startFaultInjectingServer({
      upstream: simulator.origin,
      choose: () => {
        received += 1;
        if (received % 6 === 1) return serverErrorReply(500, { type: 'error', error: { type: 'api_error', message: ECHO } });
        if (received % 6 === 4) return malformedBodyReply(`<html>${ECHO}</html>`);
        return undefined;
      },
    });
    deadOrigin = `http://127.0.0.1:${await deadPort()}`;
    outputDirectory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-secrets-'));
    skillFile = path.join(outputDirectory, 'skill.md');
    writeFileSync(skillFile, '# Skill\n\nAnswer the question. End with the answer in an <answer></answer> tag.\n');
  });
  afterAll(async () => {
    await proxy.close();
    await simulator.close();
    rmSync(outputDirectory, { recursive: true, force: true });
  });

  describe.each(Object.keys(BACKENDS) as Array<keyof typeof BACKENDS>)('through the %s backend', (backend) => {
    const { config, settings } = BACKENDS[backend];
    const origins = { simulator: () => simulator.origin, 'dead port': () => deadOrigin, 'echoing proxy': () => proxy.origin };

    it.each(Object.keys(origins) as Array<keyof typeof origins>)(
      'leaks none on the %s path, in train or eval',
      async (where) => {
        const sets = [...SMALL_RUN, ...settings(origins[where]())].flatMap((setting) => ['--set', setting]);
        const runDirectory = path.join(outputDirectory, `${backend}-${where.replace(' ', '-')}`);
        const requestsBefore = proxy.requests.length;
        const trained = await runCli(['train', '--config', config, ...sets, '--out', runDirectory]);
        const evaluated = await runCli(['eval', '--config', config, ...sets, '--skill', skillFile, '--json']);

        expect([...leaksIn(trained, runDirectory), ...leaksIn(evaluated)]).toEqual([]);
        // The run did write its directory and say something, so there was something to leak into.
        expect(existsSync(path.join(runDirectory, 'config.json'))).toBe(true);
        expect(filesUnder(runDirectory).length).toBeGreaterThan(3);
        expect(trained.output).not.toBe('');
        expect(evaluated.output).not.toBe('');
        if (where === 'simulator') expect([trained.code, evaluated.code]).toEqual([0, 0]);
        if (where === 'echoing proxy') {
          // The secrets were really in play: the query went out on every request, and the gateway echoed them back.
          const requests = proxy.requests.slice(requestsBefore);
          expect(requests.length).toBeGreaterThan(0);
          expect(requests.every((request) => request.path.endsWith(`?api-key=${QUERY_SECRET}`))).toBe(true);
          expect(requests.some((request) => request.reply.kind === 'json' && request.reply.status === 500)).toBe(true);
        }
      },
      120_000,
    );

    it('leaks none when a password in the base URL is refused', async () => {
      const withPassword = settings(simulator.origin.replace('http://', `http://user:${PASSWORD}@`));
      const sets = [...SMALL_RUN, ...withPassword].flatMap((setting) => ['--set', setting]);
      const runDirectory = path.join(outputDirectory, `${backend}-userinfo`);
      const trained = await runCli(['train', '--config', config, ...sets, '--out', runDirectory]);
      const evaluated = await runCli(['eval', '--config', config, ...sets, '--skill', skillFile]);

      expect([trained.code, evaluated.code]).toEqual([2, 2]);
      expect(trained.output).toMatch(/base_url carries a user name or password/);
      expect([...leaksIn(trained, runDirectory), ...leaksIn(evaluated)]).toEqual([]);
    });
  });
});
