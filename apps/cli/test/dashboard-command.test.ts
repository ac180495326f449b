import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SkillOptError } from '@skillopt/contract';
import { listRuns } from '@skillopt/core';
import { listenOnDashboardPort } from '../src/dashboard/dashboard-port';
import { type DashboardServer, startDashboardServer } from '../src/dashboard/dashboard-server';
import { DASHBOARD_TOKEN_VARIABLE, dashboardTokenOf } from '../src/dashboard/dashboard-token';
import { type CliProcess, oneLine, startSkillopt } from './helpers/cli-process';
import { ask } from './helpers/dashboard-client';
import { expectHelp } from './helpers/help-manifest';

const cli = path.resolve(__dirname, '..', 'bin', 'run.js');
/** The page the CLI's build copies in from @skillopt/dashboard; a checkout that has not built it has none. */
const shippedPage = path.resolve(__dirname, '..', 'dashboard', 'index.html');

let scratch: string;
let runs: string;
let page: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'skillopt-dashboard-command-'));
  runs = path.join(scratch, 'runs');
  execFileSync(process.execPath, [cli, 'demo', '--out', path.join(runs, 'a')], { stdio: 'pipe', env: { ...process.env, NODE_OPTIONS: '' } });
  page = path.join(scratch, 'page');
  mkdirSync(page);
  writeFileSync(path.join(page, 'index.html'), '<!doctype html><title>runs</title>\n');
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Holds a loopback port (a free one when none is given), as another program would. */
function holdPort(port = 0): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
const portOf = (server: Server) => (server.address() as { port: number }).port;
const release = (server: Server) => new Promise((resolve) => server.close(resolve));

describe("the dashboard's port rule", () => {
  const start = (port: number) => startDashboardServer({ runsFolder: runs, staticFolder: page, host: '127.0.0.1', port });

  it('takes the first default port when it is free, and says nothing', async () => {
    const probe = await holdPort();
    const first = portOf(probe);
    await release(probe);
    const { server, note } = await listenOnDashboardPort({ host: '127.0.0.1', port: undefined, listen: start, defaults: { first, last: first + 19 } });
    await server.close();
    expect(server.port).toBe(first);
    expect(note).toBeUndefined();
  });

  it('takes the next free port when the default one is busy, and says so plainly', async () => {
    const busy = await holdPort();
    const first = portOf(busy);
    let server: DashboardServer | undefined;
    try {
      const chosen = await listenOnDashboardPort({ host: '127.0.0.1', port: undefined, listen: start, defaults: { first, last: first + 19 } });
      server = chosen.server;
      expect(server.port).toBeGreaterThan(first);
      expect(chosen.note).toBe(`port ${first} is busy; serving on ${server.port}`);
      expect((await ask(new URL('/api/runs', server.url).href)).status).toBe(200);
    } finally {
      await server?.close();
      await release(busy);
    }
  });

  it('refuses a busy explicit port with a user error that names it and --port 0, and says when every default port is busy', async () => {
    const busy = await holdPort();
    const port = portOf(busy);
    try {
      const explicit = listenOnDashboardPort({ host: '127.0.0.1', port, listen: start });
      await expect(explicit).rejects.toThrow(SkillOptError);
      await expect(explicit).rejects.toMatchObject({ category: 'user', message: expect.stringContaining(`port ${port}`) });
      await expect(explicit).rejects.toMatchObject({ message: expect.stringContaining('--port 0') });
      await expect(listenOnDashboardPort({ host: '127.0.0.1', port: undefined, listen: start, defaults: { first: port, last: port } })).rejects.toMatchObject({
        category: 'user',
        message: `ports ${port} to ${port} are all in use: pick another with --port, or --port 0 for any free one`,
      });
    } finally {
      await release(busy);
    }
  });
});

describe("the dashboard's token", () => {
  it(`is ${DASHBOARD_TOKEN_VARIABLE} when set, else random; a short one is refused`, () => {
    expect(dashboardTokenOf({ [DASHBOARD_TOKEN_VARIABLE]: 'a-long-enough-token-value' })).toBe('a-long-enough-token-value');
    const random = dashboardTokenOf({});
    expect(random).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(dashboardTokenOf({})).not.toBe(random);
    expect(() => dashboardTokenOf({ [DASHBOARD_TOKEN_VARIABLE]: 'short' })).toThrow(expect.objectContaining({ category: 'user' }));
  });
});

describe('skillopt dashboard', () => {
  it('has a summary, a description, examples and its flags in --help', () => {
    expectHelp('dashboard', ['runs', 'port', 'host', 'json']);
  });

  it('refuses a --runs folder that does not exist, naming it (exit 2)', async () => {
    const { code, stderr } = await startSkillopt(['dashboard', '--runs', 'no-such-folder', '--port', '0'], scratch).ended;
    expect(code).toBe(2);
    expect(oneLine(stderr)).toContain('--runs no-such-folder: there is no such folder');
  });

  if (!existsSync(shippedPage)) {
    it('without the built page (a checkout that did not build @skillopt/dashboard) says how to build it (exit 2)', async () => {
      const { code, stderr } = await startSkillopt(['dashboard', '--runs', runs, '--port', '0'], scratch).ended;
      expect(code).toBe(2);
      expect(oneLine(stderr)).toContain('pnpm nx run @skillopt/cli:build');
    });
    return;
  }

  /** Resolves with stdout once it matches (the command serves until it is stopped). */
  async function waitForOutput(started: CliProcess, pattern: RegExp): Promise<RegExpExecArray> {
    const ended = started.ended.then(({ code, stdout, stderr }) => {
      throw new Error(`skillopt dashboard exited (${code}) before printing ${pattern}:\n${stdout}\n${stderr}`);
    });
    for (;;) {
      const match = pattern.exec(started.stdoutSoFar());
      if (match) return match;
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 20))]);
    }
  }

  it('serves the page and the API of the folder from the installed files; --json prints one line; SIGTERM closes it with exit 0', async () => {
    const started = startSkillopt(['dashboard', '--runs', 'runs', '--port', '0', '--json'], scratch);
    const [line] = await waitForOutput(started, /^.*\n/);
    const ready = JSON.parse(line) as { type: string; url: string; host: string; port: number; runsFolder: string };
    expect(ready).toEqual({ type: 'dashboard-started', url: `http://127.0.0.1:${ready.port}/`, host: '127.0.0.1', port: ready.port, runsFolder: runs });

    const index = await ask(ready.url);
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.body).toMatch(/<html|<!doctype html/i);
    const listed = await ask(new URL('/api/runs', ready.url).href);
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.body)).toEqual(JSON.parse(JSON.stringify({ folder: runs, runs: await listRuns(runs) })));

    started.signal('SIGTERM');
    const { code, stdout, stderr } = await started.ended;
    expect(code).toBe(0);
    expect(stdout).toBe(line);
    expect(stderr).toContain('Received SIGTERM: closing the dashboard.');
  });

  it('takes the next port when 5230 is busy and says so; SIGINT closes it with exit 0', async () => {
    // Held here, or by something else already: busy either way.
    const held = await holdPort(5230).catch(() => undefined);
    try {
      const started = startSkillopt(['dashboard', '--runs', 'runs'], scratch);
      const [, port] = await waitForOutput(started, /Dashboard of runs: http:\/\/127\.0\.0\.1:(\d+)\/\n/);
      expect(started.stdoutSoFar()).toContain(`port 5230 is busy; serving on ${port}\n`);
      expect(Number(port)).toBeGreaterThan(5230);
      expect(Number(port)).toBeLessThanOrEqual(5249);
      started.signal('SIGINT');
      expect((await started.ended).code).toBe(0);
    } finally {
      if (held) await release(held);
    }
  });

  it('refuses an explicit --port that is busy (exit 2), naming it and --port 0', async () => {
    const busy = await holdPort();
    try {
      const { code, stdout, stderr } = await startSkillopt(['dashboard', '--runs', 'runs', '--port', String(portOf(busy)), '--json'], scratch).ended;
      expect(code).toBe(2);
      const error = JSON.parse(stdout) as { error: { code: string; message: string; exitCode: number } };
      expect(error.error).toMatchObject({ exitCode: 2, message: expect.stringContaining(`port ${portOf(busy)}`) });
      expect(oneLine(stderr)).toContain('--port 0 for any free one');
    } finally {
      await release(busy);
    }
  });
});
