/**
 * The source of the fake agent harness: a small Node program that plays back a scenario file, so
 * tests drive a real child process (stdin, stdout, stderr, exit codes, signals, process groups)
 * exactly as they would drive an agent CLI. It is written out as an executable file with a
 * shebang by `installFakeHarness`; keeping it as text here means it ships inside this package's
 * bundle with nothing to copy or locate at run time.
 *
 * Scenario fields (all optional): `transcript` (lines for stdout; objects are written as JSON),
 * `transcriptFile` (a JSONL file whose lines follow), `lineDelayMs`, `exitDelayMs`, `exitCode`,
 * `crashSignal`, `stderr`, `echoEnvironment` (names whose `NAME=value` go to stderr),
 * `writeFiles` ([{path, content}] in its working directory), `recordInvocationTo` (a JSON file
 * with argv, cwd, stdin, the names of its environment variables and the files it found),
 * `ignoreTerminate` (SIGTERM does nothing), `probePaths` (paths it tries to read, recorded as
 * `probes`), `probeUrl` (fetched once, recorded as `fetched`); the record also holds its uid and HOME.
 */
export const FAKE_HARNESS_PROGRAM = String.raw`#!/usr/bin/env node
// The fake agent harness of @skillopt/backends-kit/testing. Usage: fake-harness <scenario.json>
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const scenario = JSON.parse(readFileSync(process.argv[2], 'utf8'));
if (scenario.ignoreTerminate) process.on('SIGTERM', () => undefined);

const pause = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const write = (stream, text) => new Promise((resolve) => stream.write(text, resolve));

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function filesBelow(directory, prefix = '') {
  const found = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const relative = prefix === '' ? entry.name : prefix + '/' + entry.name;
    if (entry.isDirectory()) found.push(...filesBelow(path.join(directory, entry.name), relative));
    else found.push(relative);
  }
  return found.sort();
}

function probe(target) {
  try {
    readFileSync(target);
    return { exists: true, readable: true };
  } catch {
    return { exists: existsSync(target), readable: false };
  }
}

async function fetched(url) {
  try {
    return (await fetch(url)).status;
  } catch (error) {
    return String(error.cause?.code ?? error.code ?? error.message);
  }
}

const stdin = await readStdin();
if (scenario.recordInvocationTo) {
  const invocation = {
    argv: process.argv.slice(2),
    cwd: process.cwd(),
    stdin,
    environment: Object.keys(process.env).sort(),
    files: filesBelow(process.cwd()),
    userId: process.getuid?.(),
    home: process.env.HOME,
    probes: Object.fromEntries((scenario.probePaths ?? []).map((target) => [target, probe(target)])),
    ...(scenario.probeUrl ? { fetched: await fetched(scenario.probeUrl) } : {}),
  };
  writeFileSync(scenario.recordInvocationTo, JSON.stringify(invocation, null, 2));
}
for (const file of scenario.writeFiles ?? []) {
  const target = path.join(process.cwd(), file.path);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, file.content);
}

const lines = (scenario.transcript ?? []).map((line) => (typeof line === 'string' ? line : JSON.stringify(line)));
if (scenario.transcriptFile && statSync(scenario.transcriptFile).isFile())
  lines.push(...readFileSync(scenario.transcriptFile, 'utf8').split('\n').filter((line) => line !== ''));
for (const line of lines) {
  await write(process.stdout, line + '\n');
  if (scenario.lineDelayMs) await pause(scenario.lineDelayMs);
}

if (scenario.stderr) await write(process.stderr, scenario.stderr + '\n');
for (const name of scenario.echoEnvironment ?? []) await write(process.stderr, name + '=' + (process.env[name] ?? '') + '\n');
if (scenario.exitDelayMs) await pause(scenario.exitDelayMs);
if (scenario.crashSignal) process.kill(process.pid, scenario.crashSignal);
else process.exit(scenario.exitCode ?? 0);
`;
