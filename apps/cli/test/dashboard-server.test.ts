import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listRuns, readRunReport, readSkillDiff, readSkillVersion, readStepReport, type RunReport } from '@skillopt/core';
import { type DashboardServer, startDashboardServer } from '../src/dashboard/dashboard-server';
import { ask, openStream } from './helpers/dashboard-client';

const cli = path.resolve(__dirname, '..', 'bin', 'run.js');
const formatOneRun = path.join(__dirname, 'fixtures', 'format-1-run');
// Quick polls, so a test waits milliseconds for what a browser waits a second for.
const timing = { eventsPollMs: 10, statusPollMs: 10, runsPollMs: 20, keepAliveMs: 40 };

/** What a JSON body equals: the value as JSON carries it (no undefined fields). */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

let scratch: string;
let runs: string;
let page: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'skillopt-dashboard-'));
  runs = path.join(scratch, 'runs');
  execFileSync(process.execPath, [cli, 'demo', '--out', path.join(runs, 'a')], { stdio: 'pipe', env: { ...process.env, NODE_OPTIONS: '' } });
  cpSync(formatOneRun, path.join(runs, 'format-1-run'), { recursive: true });
  // A stand-in for the built page: the server serves whatever folder it is given.
  page = path.join(scratch, 'page');
  mkdirSync(path.join(page, 'assets'), { recursive: true });
  writeFileSync(path.join(page, 'index.html'), '<!doctype html><title>runs</title><script type="module" src="/assets/page.js"></script>\n');
  writeFileSync(path.join(page, 'assets', 'page.js'), 'document.title = "runs";\n');
  writeFileSync(path.join(scratch, 'secret.txt'), 'outside the page\n');
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every file under a folder with a hash of its content and its modification time. */
function snapshot(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(folder, file)] = `${createHash('sha256').update(readFileSync(file)).digest('hex')} ${statSync(file).mtimeMs}`;
  }
  return files;
}

describe('the dashboard server on loopback', () => {
  let server: DashboardServer;
  let before: Record<string, string>;
  const at = (route: string) => new URL(route, server.url).href;
  const getJson = async (route: string) => {
    const answer = await ask(at(route));
    return { ...answer, json: JSON.parse(answer.body) as unknown };
  };

  beforeAll(async () => {
    before = snapshot(runs);
    server = await startDashboardServer({ runsFolder: runs, staticFolder: page, host: '127.0.0.1', port: 0, timing });
  });
  afterAll(() => server.close());

  it('listens on 127.0.0.1, on the port it was given (0: a free one)', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    expect(server.port).toBeGreaterThan(0);
  });

  it('GET /api/runs is core’s listRuns of the folder', async () => {
    const answer = await getJson('/api/runs');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.json).toEqual(asJson({ folder: runs, runs: await listRuns(runs) }));
    expect((answer.json as { runs: Array<{ name: string; status: string }> }).runs.map((run) => [run.name, run.status])).toEqual([
      ['a', 'finished'],
      ['format-1-run', 'finished'],
    ]);
  });

  it('GET /api/runs/:name is core’s readRunReport, for both run-directory formats', async () => {
    for (const name of ['a', 'format-1-run']) {
      const answer = await getJson(`/api/runs/${encodeURIComponent(name)}`);
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual(asJson(await readRunReport(path.join(runs, name), runs)));
    }
  });

  it('answers a step, a skill version and a diff with core’s readers', async () => {
    const directory = path.join(runs, 'a');
    const report = (await getJson('/api/runs/a')).json as RunReport;
    expect(report.steps.length).toBe(10);
    const step = await getJson('/api/runs/a/steps/3');
    expect(step.status).toBe(200);
    expect(step.json).toEqual(asJson(await readStepReport(directory, 3)));

    const versions = report.skillVersions.map((version) => version.id);
    expect(versions[0]).toBe('skill_v0000');
    const last = versions.at(-1) as string;
    const version = await getJson(`/api/runs/a/skills/${last}`);
    expect(version.status).toBe(200);
    expect(version.json).toEqual(asJson(await readSkillVersion(directory, last)));

    const diff = await getJson(`/api/runs/a/diff?from=skill_v0000&to=${last}`);
    expect(diff.status).toBe(200);
    expect(diff.json).toEqual(asJson(await readSkillDiff(directory, 'skill_v0000', last)));
    expect((diff.json as { added: number }).added).toBeGreaterThan(0);
  });

  it.each([
    ['/api/runs/nope', 404, 'not-found'],
    ['/api/runs/a/steps/99', 404, 'not-found'],
    ['/api/runs/a/steps/0', 400, 'bad-parameter'],
    ['/api/runs/a/steps/three', 400, 'bad-parameter'],
    ['/api/runs/a/skills/skill_v9999', 404, 'not-found'],
    ['/api/runs/a/diff?from=skill_v0000&to=skill_v9999', 404, 'not-found'],
    ['/api/runs/a/diff?from=skill_v0000', 400, 'bad-parameter'],
    ['/api/runs/a/events?after=minus-one', 400, 'bad-parameter'],
    ['/api/nope', 404, 'not-found'],
    ['/api/runs/a/nope', 404, 'not-found'],
    ['/api/runs/a/steps/1/more', 404, 'not-found'],
    ['/api/runs/..', 404, 'not-found'],
    ['/api/runs/%2E%2E', 404, 'not-found'],
    ['/api/runs/..%2Fruns%2Fa', 404, 'not-found'],
    ['/api/runs/a%2Fsteps', 404, 'not-found'],
    [`/api/runs/${encodeURIComponent(path.join(os.tmpdir(), 'runs', 'a'))}`, 404, 'not-found'],
    ['/api/runs/%E0%A4%A', 400, 'bad-parameter'],
  ])('%s is %d %s', async (route, status, code) => {
    const answer = await ask(`${server.url.slice(0, -1)}${route}`);
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(answer.body)).toEqual({ error: { code, message: expect.any(String) } });
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s is 405 with Allow: GET, HEAD, on the API and the page alike', async (method) => {
    for (const route of ['/api/runs', '/api/runs/a', '/api/runs/a/events', '/']) {
      const answer = await ask(at(route), { method });
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('GET, HEAD');
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'method-not-allowed' } });
    }
  });

  it('serves the page: index.html at /, its assets with their types, HEAD without a body, and no other file', async () => {
    const index = await ask(at('/'));
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.body).toBe(readFileSync(path.join(page, 'index.html'), 'utf8'));
    const script = await ask(at('/assets/page.js'));
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const head = await ask(at('/'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(index.body)));
    expect(head.body).toBe('');
    for (const route of [
      '/assets',
      '/assets/',
      '/missing.js',
      '/runs/a',
      '/../secret.txt',
      '/%2E%2E/secret.txt',
      '/..%2Fsecret.txt',
      '/assets/..%2F..%2Fsecret.txt',
    ]) {
      const answer = await ask(`${server.url.slice(0, -1)}${route}`);
      expect([route, answer.status]).toEqual([route, 404]);
      expect(answer.body).not.toContain('outside the page');
    }
  });

  it('puts the security headers on every response', async () => {
    for (const answer of [await ask(at('/')), await ask(at('/api/runs')), await ask(at('/api/nope')), await ask(at('/'), { method: 'POST' })]) {
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
      expect(answer.headers['content-security-policy']).toBe("default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'");
    }
  });

  it('answers only requests whose Host is a loopback name with its port (DNS rebinding)', async () => {
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `[::1]:${server.port}`])
      expect([host, (await ask(at('/api/runs'), { headers: { Host: host } })).status]).toEqual([host, 200]);
    for (const host of [`evil.example:${server.port}`, 'evil.example', `127.0.0.1:${server.port + 1}`, `127.0.0.1:${server.port}@evil.example`]) {
      const answer = await ask(at('/api/runs'), { headers: { Host: host } });
      expect([host, answer.status]).toEqual([host, 403]);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'host-refused' } });
    }
  });

  it('streams every event of a finished run, each with the byte offset after its line as its id', async () => {
    const text = readFileSync(path.join(runs, 'a', 'events.jsonl'), 'utf8');
    const lines = text.trimEnd().split('\n');
    const offsets = lines.map((_, index) => Buffer.byteLength(`${lines.slice(0, index + 1).join('\n')}\n`));
    const stream = await openStream(at('/api/runs/a/events'));
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(stream.headers['cache-control']).toBe('no-store');
      const events = await stream.waitFor((event) => event.id === Buffer.byteLength(text));
      expect(events[0]).toEqual({ id: undefined, event: 'run-status', data: { status: 'finished', stop: null } });
      const runEvents = events.filter((event) => event.event === 'run-event');
      expect(runEvents.map((event) => event.id)).toEqual(offsets);
      expect(runEvents.map((event) => event.data)).toEqual(lines.map((line) => JSON.parse(line)));

      // Resumed after one of them: the events after it, and nothing before.
      const middle = offsets[500] as number;
      for (const resumed of [
        await openStream(at('/api/runs/a/events'), { 'Last-Event-ID': String(middle) }),
        await openStream(at(`/api/runs/a/events?after=${middle}`)),
      ]) {
        const again = await resumed.waitFor((event) => event.id === Buffer.byteLength(text));
        resumed.close();
        expect(again.filter((event) => event.event === 'run-event').map((event) => event.id)).toEqual(offsets.slice(501));
      }
      // Idle, it says it is alive.
      await stream.waitForComments(1);
      expect(stream.comments).toContain('keep-alive');
    } finally {
      stream.close();
    }
  });

  it('HEAD of an event stream answers the headers and ends', async () => {
    const answer = await ask(at('/api/runs/a/events'), { method: 'HEAD' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(answer.body).toBe('');
  });

  it('wrote nothing in the folder of runs', () => {
    expect(snapshot(runs)).toEqual(before);
  });
});

describe('the dashboard server with a token', () => {
  const token = 'a-test-token-of-some-length-0123456789';
  let server: DashboardServer;
  const at = (route: string) => new URL(route, server.url).href;
  beforeAll(async () => {
    server = await startDashboardServer({ runsFolder: runs, staticFolder: page, host: '127.0.0.1', port: 0, token, timing });
  });
  afterAll(() => server.close());

  it('refuses a request without the token, or with another one (401)', async () => {
    for (const headers of [{}, { Authorization: 'Bearer wrong-token-wrong-token' }, { Cookie: 'skillopt_dashboard_token=wrong' }]) {
      const answer = await ask(at('/api/runs'), { headers });
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'token-required' } });
    }
    expect((await ask(at('/'))).status).toBe(401);
    expect((await ask(at('/?token=wrong'))).status).toBe(401);
  });

  it('takes ?token= on a page load: a cookie and a 303 to the same URL without it; then the cookie or a Bearer header will do', async () => {
    const answers = [];
    const load = await ask(at(`/?token=${token}`));
    answers.push(load);
    expect(load.status).toBe(303);
    expect(load.headers.location).toBe('/');
    expect(load.headers['set-cookie']).toEqual([`skillopt_dashboard_token=${token}; HttpOnly; SameSite=Strict; Path=/`]);
    const withQuery = await ask(at(`/api/runs/a/diff?from=skill_v0000&token=${token}&to=skill_v0001`));
    answers.push(withQuery);
    expect(withQuery.status).toBe(303);
    expect(withQuery.headers.location).toBe('/api/runs/a/diff?from=skill_v0000&to=skill_v0001');

    const cookie = { Cookie: `other=1; skillopt_dashboard_token=${token}` };
    for (const headers of [cookie, { Authorization: `Bearer ${token}` }]) {
      for (const route of ['/', '/api/runs', '/api/runs/a', '/api/nope']) {
        const answer = await ask(at(route), { headers });
        answers.push(answer);
        expect([route, answer.status]).toEqual([route, route === '/api/nope' ? 404 : 200]);
      }
    }
    const stream = await openStream(at('/api/runs/a/events'), cookie);
    const events = await stream.waitFor((event) => event.event === 'run-event');
    stream.close();
    answers.push(await ask(at('/api/runs')), await ask(at('/'), { method: 'POST', ...{ headers: cookie } }));

    // The token is in no answer but the one cookie that sets it.
    for (const answer of answers) {
      const { 'set-cookie': _cookie, ...headers } = answer.headers;
      expect(answer.body).not.toContain(token);
      expect(JSON.stringify(headers)).not.toContain(token);
    }
    expect(JSON.stringify(events)).not.toContain(token);
  });
});

describe('a live folder of runs', () => {
  let live: string;
  let server: DashboardServer;
  let holder: ChildProcess | undefined;
  const at = (route: string) => new URL(route, server.url).href;
  const eventLine = (epoch: number) => `${JSON.stringify({ type: 'epoch-started', runId: 'live', timestamp: '2026-12-01T15:00:00.000Z', epoch })}\n`;

  beforeAll(async () => {
    live = path.join(scratch, 'live', 'outputs');
    server = await startDashboardServer({ runsFolder: live, staticFolder: page, host: '127.0.0.1', port: 0, timing });
  });
  afterAll(async () => {
    holder?.kill('SIGKILL');
    await server.close();
  });

  it('serves a folder that does not exist yet as no runs, and tells the page when runs appear in it', async () => {
    expect(JSON.parse((await ask(at('/api/runs'))).body)).toEqual({ folder: live, runs: [] });
    const changes = await openStream(at('/api/events'));
    try {
      expect(changes.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      mkdirSync(live, { recursive: true });
      cpSync(path.join(runs, 'a'), path.join(live, 'growing'), { recursive: true });
      const events = await changes.waitFor((event) => event.event === 'runs-changed');
      expect(events.find((event) => event.event === 'runs-changed')?.data).toEqual({ names: ['growing'] });
      expect(JSON.parse((await ask(at('/api/runs'))).body)).toEqual(asJson({ folder: live, runs: await listRuns(live) }));
    } finally {
      changes.close();
    }
  });

  it('sends what is appended to events.jsonl as it comes, and a line only once it is complete', async () => {
    const file = path.join(live, 'growing', 'events.jsonl');
    const size = statSync(file).size;
    const stream = await openStream(at('/api/runs/growing/events'));
    try {
      await stream.waitFor((event) => event.id === size);
      appendFileSync(file, eventLine(7));
      const afterOne = size + Buffer.byteLength(eventLine(7));
      const withOne = await stream.waitFor((event) => event.id === afterOne);
      expect(withOne.at(-1)).toEqual({ id: afterOne, event: 'run-event', data: JSON.parse(eventLine(7)) });

      // Half a line: the server polls the file (keep-alives go by) and sends nothing of it.
      const next = eventLine(8);
      appendFileSync(file, next.slice(0, 25));
      const sent = stream.events.length;
      await stream.waitForComments(3);
      expect(stream.events.length).toBe(sent);
      appendFileSync(file, next.slice(25) + eventLine(9));
      const end = afterOne + Buffer.byteLength(next + eventLine(9));
      const all = await stream.waitFor((event) => event.id === end);
      expect(all.slice(sent)).toEqual([
        { id: afterOne + Buffer.byteLength(next), event: 'run-event', data: JSON.parse(next) },
        { id: end, event: 'run-event', data: JSON.parse(eventLine(9)) },
      ]);
    } finally {
      stream.close();
    }
  });

  it('shows a run whose session was killed as stopped (killed), on its event stream and to the runs page', async () => {
    // A run in the middle of training: its last lifecycle event is run-started, no summary yet, and
    // its lock names a process that runs — until it is killed.
    const killed = path.join(live, 'killed');
    cpSync(path.join(runs, 'a'), killed, { recursive: true });
    rmSync(path.join(killed, 'summary.json'));
    const events = readFileSync(path.join(killed, 'events.jsonl'), 'utf8');
    truncateSync(path.join(killed, 'events.jsonl'), Buffer.byteLength(events.slice(0, events.indexOf('{"type":"step-finished"'))));
    holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const lock = {
      lockId: 'test-lock',
      pid: holder.pid,
      hostname: os.hostname(),
      startedAt: new Date().toISOString(),
      command: 'skillopt train',
      purpose: 'training',
    };
    writeFileSync(path.join(killed, 'skillopt.lock'), JSON.stringify(lock));

    const changes = await openStream(at('/api/events'));
    const stream = await openStream(at('/api/runs/killed/events'));
    try {
      await stream.waitFor((event) => event.event === 'run-status');
      expect(stream.events[0]).toEqual({ id: undefined, event: 'run-status', data: { status: 'in progress', stop: null } });
      const listed = async () =>
        (JSON.parse((await ask(at('/api/runs'))).body) as { runs: Array<{ name: string; status: string }> }).runs.find((run) => run.name === 'killed');
      expect(await listed()).toMatchObject({ status: 'in progress' });
      await changes.waitFor((event) => event.event === 'runs-changed' && (event.data as { names: string[] }).names.includes('killed'));
      const changedBefore = changes.events.length;

      const exited = new Promise((resolve) => holder?.once('exit', resolve));
      holder.kill('SIGKILL');
      await exited;
      const withStop = await stream.waitFor((event) => event.event === 'run-status' && (event.data as { status: string }).status === 'stopped');
      expect(withStop.filter((event) => event.event === 'run-status').at(-1)?.data).toEqual({
        status: 'stopped',
        stop: {
          reason: 'killed',
          message: expect.stringContaining(`its process ${holder.pid} no longer runs`),
          resumeCommand: `skillopt train --resume ${killed}`,
        },
      });
      await changes.waitFor((event, index) => index >= changedBefore && (event.data as { names: string[] }).names.includes('killed'));
      expect(await listed()).toMatchObject({ status: 'stopped', stop: { reason: 'killed' } });
    } finally {
      stream.close();
      changes.close();
    }
  });

  it('tells the page when a run goes away', async () => {
    const changes = await openStream(at('/api/events'));
    try {
      rmSync(path.join(live, 'growing'), { recursive: true });
      await changes.waitFor((event) => event.event === 'runs-changed' && (event.data as { names: string[] }).names.includes('growing'));
      expect((await ask(at('/api/runs/growing'))).status).toBe(404);
    } finally {
      changes.close();
    }
  });

  it('ends every open event stream when it closes', async () => {
    const other = await startDashboardServer({ runsFolder: runs, staticFolder: page, host: '127.0.0.1', port: 0, timing });
    const streams = [await openStream(new URL('/api/events', other.url).href), await openStream(new URL('/api/runs/a/events', other.url).href)];
    await streams[1]?.waitFor((event) => event.event === 'run-event');
    await other.close();
    await Promise.all(streams.map((stream) => stream.ended));
  });
});
