#!/usr/bin/env node
// One check of the pack-and-install run (pack-and-install.mjs), in a process of its own because it
// waits on a server: starts the installed `skillopt dashboard --runs <folder> --port 0 --json`,
// reads the URL from its one JSON line, fetches the page (`/`, an HTML document) and `/api/runs`
// (which must list `<run name>`), stops it with SIGTERM and expects exit 0. It prints what it
// found on success; on failure it exits 1 with the reason and the dashboard's output.
// Arguments: the installed skillopt bin, the working directory, the runs folder, the run's name.
import { spawn } from 'node:child_process';

const [skillopt, workingDirectory, runsFolder, runName] = process.argv.slice(2);
const STARTUP_TIMEOUT_MS = 60_000;

const child = spawn(skillopt, ['dashboard', '--runs', runsFolder, '--port', '0', '--json'], {
  cwd: workingDirectory,
  env: { ...process.env, NO_COLOR: '1' },
});
let stdout = '';
let stderr = '';
child.stdout.on('data', (chunk) => (stdout += chunk));
child.stderr.on('data', (chunk) => (stderr += chunk));
const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? signal)));

function fail(reason) {
  if (child.exitCode === null) child.kill('SIGKILL');
  console.error(`${reason}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`);
  process.exit(1);
}

const startedAt = Date.now();
while (!stdout.includes('\n')) {
  if (child.exitCode !== null) fail(`skillopt dashboard exited with ${child.exitCode} before printing its URL`);
  if (Date.now() - startedAt > STARTUP_TIMEOUT_MS) fail('skillopt dashboard printed no URL within 60 s');
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const started = JSON.parse(stdout.split('\n')[0]);
if (started.type !== 'dashboard-started' || !/^http:\/\/127\.0\.0\.1:\d+\/$/.test(started.url)) fail(`unexpected first line: ${stdout.split('\n')[0]}`);

const page = await fetch(started.url);
const html = await page.text();
if (page.status !== 200 || !page.headers.get('content-type')?.startsWith('text/html') || !/<html/i.test(html))
  fail(`GET / answered ${page.status} ${page.headers.get('content-type')}, not the HTML page:\n${html.slice(0, 300)}`);
const listing = await fetch(new URL('/api/runs', started.url));
const runs = await listing.json();
if (listing.status !== 200 || !runs.runs?.some((run) => run.name === runName && run.kind === 'run'))
  fail(`GET /api/runs answered ${listing.status} without the run ${runName}:\n${JSON.stringify(runs).slice(0, 500)}`);

child.kill('SIGTERM');
const code = await exited;
if (code !== 0) fail(`skillopt dashboard exited with ${code} after SIGTERM, not 0`);
console.log(
  `${started.url}: the page (${html.length} bytes of HTML) and /api/runs with ${runs.runs.length} run(s), ${runName} ${runs.runs.find((run) => run.name === runName).status}`,
);
