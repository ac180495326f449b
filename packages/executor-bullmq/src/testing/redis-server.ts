import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findExecutable } from '@skillopt/runtime-kit';

/** A redis-server this process started, on a loopback port, with its data in a temporary directory. */
export interface TestRedisServer {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** Where the server keeps its files (removed by `stop`). */
  readonly directory: string;
  /** Stops the server, keeping the directory; `start` brings it back on the same port. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again after `kill`: with no persistence it comes back empty, as after a crash. */
  start(): Promise<void>;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

export interface StartRedisServerOptions {
  /** `appendonly yes`, the persistence the docs recommend; default off, so a restart loses everything. */
  appendOnly?: boolean;
}

/**
 * Starts the Debian `redis-server` for a test: bound to 127.0.0.1 on a free port, no snapshots,
 * its files in a fresh temporary directory. Throws, naming the package to install, when the
 * executable is missing, so a machine without it fails the test with its cause.
 */
export async function startRedisServer(options: StartRedisServerOptions = {}): Promise<TestRedisServer> {
  const executable = findExecutable('redis-server', process.env.PATH);
  if (executable === undefined)
    throw new Error("redis-server is not installed: the distributed executor's tests need it (Debian: apt-get install -y redis-server)");
  const directory = await mkdtemp(join(tmpdir(), 'skillopt-redis-'));
  const port = await freeLoopbackPort();
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    const arguments_ = [
      '--bind',
      '127.0.0.1',
      '--port',
      String(port),
      '--dir',
      directory,
      '--save',
      '',
      '--appendonly',
      options.appendOnly === true ? 'yes' : 'no',
      '--maxmemory-policy',
      'noeviction',
      '--daemonize',
      'no',
      '--loglevel',
      'warning',
    ];
    const started = spawn(executable as string, arguments_, { stdio: ['ignore', 'ignore', 'pipe'] });
    child = started;
    let errorOutput = '';
    started.stderr?.on('data', (chunk: Buffer) => {
      errorOutput += chunk.toString();
    });
    await waitForPort(port, started, () => errorOutput);
  }

  async function kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill(signal);
    await exited;
  }

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    directory,
    kill,
    start,
    async stop() {
      await kill('SIGTERM');
      await rm(directory, { recursive: true, force: true });
    },
  };
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

// Polls until the server accepts a connection; a server that exits first (port taken, bad
// argument) fails with what it printed.
async function waitForPort(port: number, child: ChildProcess, errorOutput: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}: ${errorOutput().trim()}`);
    if (await accepts(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not accept connections on 127.0.0.1:${port} within 10 s`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}
