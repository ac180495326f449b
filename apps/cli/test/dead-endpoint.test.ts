import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// Observed before: training through the OpenAI backend against a port where nothing listens ran,
// excluded every item and exited 0 with "test accuracy 0.0% → 0.0%" under a SIMULATED label. A
// run that measured nothing must look failed: exit 1, the cause, the command that resumes.
const repositoryRoot = path.resolve(__dirname, '..', '..', '..');
const cli = path.join(__dirname, '..', 'bin', 'run.js');

/** A loopback port that was free a moment ago, and on which nothing listens now. */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function runCli(args: string[]): Promise<{ exitCode: number | null; output: string }> {
  const child = spawn(process.execPath, [cli, ...args], { cwd: repositoryRoot, env: { ...process.env, NODE_OPTIONS: '' } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (exitCode) => resolve({ exitCode, output })));
}

describe('a backend whose endpoint is dead', () => {
  let outputDirectory: string;
  let baseUrl: string;
  beforeAll(async () => {
    outputDirectory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-dead-endpoint-'));
    baseUrl = `http://127.0.0.1:${await deadPort()}/v1`;
  });
  afterAll(() => rmSync(outputDirectory, { recursive: true, force: true }));

  // One attempt per call and no rollout retry: the failure is the same, only sooner.
  const quickly = ['--set', 'backends.openai.max_attempts=1', '--set', 'run.retries=0'];

  it('stops train with exit 1, the cause and the resume command, and prints no score', async () => {
    const runDirectory = path.join(outputDirectory, 'train');
    const { exitCode, output } = await runCli([
      'train',
      '--config',
      'configs/features/openai-via-sim.yaml',
      '--set',
      `backends.openai.base_url=${baseUrl}`,
      ...quickly,
      '--out',
      runDirectory,
    ]);
    expect(exitCode).toBe(1);
    // The baseline and step 1's rollouts run together: whichever fails first is named.
    expect(output).toMatch(
      /(The baseline evaluation of the initial skill on the validation split|A batch of training rollouts) excluded every one of its \d+ items/,
    );
    expect(output).toContain('provider-connection');
    expect(output).toContain(`train --resume ${path.relative(repositoryRoot, runDirectory)}`);
    expect(output).not.toMatch(/\d+\.\d%/);
    expect(output).not.toContain('SIMULATED');
    expect(readdirSync(runDirectory)).not.toContain('summary.json');
  });

  it('stops eval with exit 1 and the cause instead of a 0% pass rate', async () => {
    const { exitCode, output } = await runCli([
      'eval',
      '--config',
      'configs/features/openai-via-sim.yaml',
      '--skill',
      'packages/env-searchqa/src/initial-skill.md',
      '--set',
      `backends.openai.base_url=${baseUrl}`,
      ...quickly,
    ]);
    expect(exitCode).toBe(1);
    expect(output).toMatch(/The evaluation on the test split excluded every one of its \d+ items/);
    expect(output).not.toMatch(/pass rate/);
  });
});
