import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import path from 'node:path';
import { format } from 'node:util';
import { run } from '@oclif/core';
import { isLoopbackHost } from '../src/serving/loopback-host';
import { createFixtureProject, type FixtureProject } from './helpers/fixture-project';

const cliRoot = path.resolve(__dirname, '..');

/** A skill with a rule against every failure class a fixture item (a number) can have. */
const FIXING_SKILL = [
  '# Skill',
  '',
  '- Put only the answer inside <answer></answer>, nothing else.',
  '- Always end your reply with the answer inside <answer></answer> tags.',
  '- Close the tag exactly: <answer> and </answer>.',
  '- Write numbers with digits, never in words.',
].join('\n');

interface RunningServe {
  /** Everything written to stdout so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout matches. */
  waitForStdout(pattern: RegExp): Promise<RegExpExecArray>;
  /** The SIGTERM/SIGINT handlers the command installed (not those that were there before). */
  addedSignalListeners(signal: 'SIGINT' | 'SIGTERM'): NodeJS.SignalsListener[];
  /** Settles when the command returns. */
  finished: Promise<unknown>;
}

/**
 * `skillopt sim serve` in-process, from the fixture project. Its output is read as it is written
 * (the server runs until a signal, so waiting for the command to return first is not an option).
 */
function startServe(args: string[], project: FixtureProject): RunningServe {
  const out: string[] = [];
  const err: string[] = [];
  const signalListenersBefore = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
  // oclif writes through console.log / console.error, which Jest replaces; other writes go to the streams.
  const spies = [
    jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown) => out.push(String(chunk)) > 0) as typeof process.stdout.write),
    jest.spyOn(process.stderr, 'write').mockImplementation(((chunk: unknown) => err.push(String(chunk)) > 0) as typeof process.stderr.write),
    jest.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void out.push(`${format(...parts)}\n`)),
    jest.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void err.push(`${format(...parts)}\n`)),
    jest.spyOn(console, 'warn').mockImplementation((...parts: unknown[]) => void err.push(`${format(...parts)}\n`)),
  ];
  const previous = process.cwd();
  process.chdir(project.directory);
  const finished = run(['sim', 'serve', ...args], { root: cliRoot }).finally(() => {
    process.chdir(previous);
    for (const spy of spies) spy.mockRestore();
  });
  finished.catch(() => undefined);
  const stdout = () => out.join('');
  return {
    stdout,
    stderr: () => err.join(''),
    async waitForStdout(pattern) {
      for (;;) {
        const match = pattern.exec(stdout());
        if (match) return match;
        const settled = await Promise.race([
          finished.then(
            () => true,
            () => true,
          ),
          new Promise<false>((resolve) => setTimeout(() => resolve(false), 20)),
        ]);
        if (settled && !pattern.test(stdout())) throw new Error(`sim serve ended before printing ${pattern}:\n${stdout()}\n${err.join('')}`);
      }
    },
    addedSignalListeners: (signal) => process.listeners(signal).filter((listener) => !signalListenersBefore[signal].includes(listener)),
    finished,
  };
}

describe('skillopt sim serve', () => {
  let project: FixtureProject;
  beforeEach(() => {
    project = createFixtureProject();
  });
  afterEach(() => project.remove());

  it('serves the env tasks as an OpenAI-compatible simulated model on 127.0.0.1 until SIGTERM', async () => {
    const serve = startServe(['--config', 'train.yaml', '--port', '0', '--noise', '0', '--ready-file', 'ready.json'], project);
    const [, url] = await serve.waitForStdout(/Stop with Ctrl-C/).then(() => /base URL\s+(\S+)/.exec(serve.stdout()) as RegExpExecArray);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const stdout = serve.stdout();
    expect(stdout).toContain('SIMULATED');
    expect(stdout).toMatch(/target model\s+sim-target/);
    expect(stdout).toMatch(/optimizer model\s+sim-optimizer/);
    // 8 train + 6 val + 6 test items in the fixture env, all in the answer key.
    expect(stdout).toMatch(/answer key\s+20 items/);
    // The fixture config's backends.sim.seed (3), the --noise flag.
    expect(stdout).toContain('seed 3, noise 0, latency 0 ms');
    expect(stdout).toContain(`--set backends.openai.base_url=${url}`);
    const ready = JSON.parse(readFileSync(path.join(project.directory, 'ready.json'), 'utf8')) as { url: string; answerKeyItems: number };
    expect(ready).toMatchObject({ url, answerKeyItems: 20, targetModel: 'sim-target', optimizerModel: 'sim-optimizer' });

    const models = (await (await fetch(`${url}/models`)).json()) as { data: Array<{ id: string; owned_by: string }> };
    expect(models.data.map((model) => model.id)).toEqual(['sim-target', 'sim-optimizer']);
    expect(models.data[0]?.owned_by).toContain('simulated');

    // The simulated target knows the fixture's facts (What is 12 plus 2? → 14) and, with a skill
    // that fixes every failure class and no noise, answers them correctly.
    const response = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'sim-target',
        messages: [
          { role: 'system', content: `${FIXING_SKILL}\n\n# Task\n\nAnswer the question.` },
          { role: 'user', content: '## Question\n\nWhat is 12 plus 2?' },
        ],
      }),
    });
    expect(response.status).toBe(200);
    const completion = (await response.json()) as { model: string; choices: Array<{ message: { content: string } }>; usage: { total_tokens: number } };
    expect(completion.model).toBe('sim-target');
    expect(completion.choices[0]?.message.content).toMatch(/<answer>14<\/answer>\s*$/);
    expect(completion.usage.total_tokens).toBeGreaterThan(0);

    const unknownModel = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(unknownModel.status).toBe(404);

    // Stop it through the handler it installed for SIGTERM: the path a real signal takes.
    const handlers = serve.addedSignalListeners('SIGTERM');
    expect(handlers).toHaveLength(1);
    handlers[0]?.('SIGTERM');
    await serve.finished;
    expect(serve.stdout()).toContain('Received SIGTERM: closing the simulated server.');
    expect(serve.stdout()).toMatch(/Closed\.\n$/);
    expect(serve.addedSignalListeners('SIGTERM')).toHaveLength(0);
    expect(serve.addedSignalListeners('SIGINT')).toHaveLength(0);
    expect(existsSync(path.join(project.directory, 'ready.json'))).toBe(false);
    await expect(fetch(`${url}/models`)).rejects.toThrow();
  });

  it('takes the seed and latency from the flags over the config', async () => {
    const serve = startServe(['--config', 'train.yaml', '--seed', '11', '--latency-ms', '5'], project);
    await serve.waitForStdout(/Stop with Ctrl-C/);
    expect(serve.stdout()).toContain('seed 11, noise 0.05, latency 5 ms');
    serve.addedSignalListeners('SIGINT')[0]?.('SIGINT');
    await serve.finished;
    expect(serve.stdout()).toContain('Received SIGINT');
  });

  it('disconnects a client that sends its headers and stalls its body, after --request-timeout-ms', async () => {
    const serve = startServe(['--config', 'train.yaml', '--request-timeout-ms', '200', '--headers-timeout-ms', '100', '--max-body-bytes', '4096'], project);
    await serve.waitForStdout(/Stop with Ctrl-C/);
    expect(serve.stdout()).toMatch(/request limits\s+the whole request within 200 ms \(headers within 100 ms\), a body of at most 4096 bytes/);
    const port = Number(/base URL\s+http:\/\/127\.0\.0\.1:(\d+)/.exec(serve.stdout())?.[1]);
    const received = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
      // Headers that promise a 100-byte body, then 10 bytes of it and nothing more.
      socket.write('POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"model":');
    });
    expect(received).toMatch(/^HTTP\/1\.1 408/);
    serve.addedSignalListeners('SIGTERM')[0]?.('SIGTERM');
    await serve.finished;
  });

  it('warns loudly before binding to a non-loopback address, and explains a failed listen', async () => {
    // 192.0.2.1 (TEST-NET-1) belongs to no machine: the warning is printed, then the listen fails.
    const serve = startServe(['--config', 'train.yaml', '--host', '192.0.2.1'], project);
    const error = (await serve.finished.then(
      () => undefined,
      (reason: unknown) => reason,
    )) as { message: string; oclif?: { exit: number } };
    expect(serve.stderr()).toContain('BINDING TO 192.0.2.1, WHICH IS NOT A LOOPBACK ADDRESS');
    expect(error.oclif?.exit).toBe(2);
    expect(error.message).toContain('cannot listen on 192.0.2.1');
  });

  it('names a port already in use and exits 2', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const serve = startServe(['--config', 'train.yaml', '--port', String(port)], project);
      const error = (await serve.finished.then(
        () => undefined,
        (reason: unknown) => reason,
      )) as { message: string; oclif?: { exit: number } };
      expect(serve.stderr()).not.toContain('NOT A LOOPBACK');
      expect(error.oclif?.exit).toBe(2);
      expect(error.message).toContain(`port ${port}: the port is already in use`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('rejects a noise that is not a probability', async () => {
    const serve = startServe(['--config', 'train.yaml', '--noise', '1.5'], project);
    const error = (await serve.finished.then(
      () => undefined,
      (reason: unknown) => reason,
    )) as { message: string; oclif?: { exit: number } };
    expect(error.oclif?.exit).toBe(2);
    expect(error.message).toContain('--noise must be a probability');
  });

  it('exits 0 on a real SIGINT when run as its own process', async () => {
    const child = spawn(process.execPath, [path.join(cliRoot, 'bin', 'run.js'), 'sim', 'serve', '--config', 'train.yaml'], {
      cwd: project.directory,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          const match = /base URL\s+(\S+)/.exec(stdout);
          if (match && stdout.includes('Stop with Ctrl-C')) resolve(match[1] as string);
        });
        void exited.then((code) => reject(new Error(`sim serve exited (${code}) before it was ready:\n${stdout}\n${stderr}`)));
      });
      const models = (await (await fetch(`${url}/models`)).json()) as { data: Array<{ id: string }> };
      expect(models.data).toHaveLength(2);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(stdout).toContain('Closed.');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});

describe('isLoopbackHost', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  it.each(['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'example.com', '128.0.0.1'])('%s is not', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});
