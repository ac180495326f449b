#!/usr/bin/env node
// The README's test command (`pnpm check`): lint with the layering check, build, every Jest
// project, then the serialised target of the tests that start real agent CLIs, the pack-and-install
// check and the example runner; it prints the time of each phase (with .ci/run's own phases, which
// it passes in SKILLOPT_CI_PHASE_TIMES) and ends with one line `N passed, N failed`.
// Jest results come from each project's test-results/jest.json, written by tools/jest's reporter
// (Nx restores them on a cache hit);
// a lint or build task that fails, or a test project that never ran, counts as one failure each.
// Last, it fails when `git status --porcelain` lists a file the check created or changed: a run of
// the checks leaves the tree as it found it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const workspaceRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const failures = [];
let passed = 0;
const checkStarted = performance.now();
const phaseTimes = [];

/** Runs one phase of the check and keeps its wall time for the closing table. */
async function timed(phase, work) {
  const started = performance.now();
  try {
    return await work();
  } finally {
    phaseTimes.push([phase, (performance.now() - started) / 1000]);
  }
}

function workspaceProjects() {
  const directories = [path.join(workspaceRoot, 'tools')];
  for (const group of ['packages', 'apps']) {
    const groupDirectory = path.join(workspaceRoot, group);
    if (!existsSync(groupDirectory)) continue;
    for (const entry of readdirSync(groupDirectory, { withFileTypes: true })) if (entry.isDirectory()) directories.push(path.join(groupDirectory, entry.name));
  }
  return directories
    .filter((directory) => existsSync(path.join(directory, 'package.json')))
    .map((directory) => ({ directory, manifest: JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8')) }));
}

/** Runs a command with its output shown as it comes, and returns its exit code and output (both streams). */
function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: workspaceRoot, stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      stdout += chunk;
    });
    // Nx prints its "Failed tasks" list on stderr.
    child.stderr.on('data', (chunk) => {
      process.stderr.write(chunk);
      stdout += chunk;
    });
    child.on('error', (error) => resolve({ code: 127, stdout: String(error) }));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout }));
  });
}

function failedNxTasks(output) {
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  const section = plain.split(/Failed tasks:/)[1] ?? '';
  return [...section.matchAll(/^\s*-\s+(\S+:\S+)/gm)].map((match) => match[1]);
}

/** `git status --porcelain`'s lines, or undefined outside a git work tree (an unpacked tarball, say). */
function treeStatus() {
  const status = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: workspaceRoot, encoding: 'utf8' });
  return status.status === 0 ? new Set(status.stdout.split('\n').filter(Boolean)) : undefined;
}
// What was already changed or untracked before the check is the developer's, not the check's.
const statusBefore = treeStatus();

// The code checks that look at the whole tree at once: lint and format (Biome), unused files,
// exports and dependencies (knip), workspace package.json hygiene (sherif). Each counts once.
await timed('biome, knip, sherif', async () => {
  for (const [name, command] of [
    ['biome check (lint and format)', ['exec', 'biome', 'check', '.']],
    ['knip (unused files, exports and dependencies)', ['exec', 'knip', '--no-progress', '--no-config-hints']],
    ['sherif (workspace package.json hygiene)', ['exec', 'sherif']],
  ]) {
    const result = await run('pnpm', command);
    if (result.code === 0) passed += 1;
    else failures.push(`${name} reported problems (above)`);
  }
});

const projects = workspaceProjects();
for (const { directory } of projects) rmSync(path.join(directory, 'test-results'), { recursive: true, force: true });

const nx = await timed('nx lint, build, test', () =>
  run('pnpm', ['exec', 'nx', 'run-many', '-t', 'lint', 'build', 'test', '--outputStyle=static'], {
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
  }),
);
const failedTasks = failedNxTasks(nx.stdout);
// A failed test task is counted by its failed tests below; other failed tasks count once each.
for (const task of failedTasks) if (!task.endsWith(':test')) failures.push(`nx task ${task} failed`);
if (nx.code !== 0 && failedTasks.length === 0) failures.push(`nx exited with ${nx.code} without naming a failed task`);

/** Adds a Jest project's results file to the counts; returns them, or undefined when the project did not run. */
function countJestResults(name, directory) {
  const resultsPath = path.join(directory, 'test-results', 'jest.json');
  if (!existsSync(resultsPath)) {
    failures.push(`${name}: tests did not run (no ${path.relative(workspaceRoot, resultsPath)})`);
    return undefined;
  }
  const results = JSON.parse(readFileSync(resultsPath, 'utf8'));
  passed += results.numPassedTests;
  for (const test of results.failedTests) failures.push(`${name}: ${test}`);
  // A test file that fails to load runs no test: count it so it cannot pass unseen.
  for (const suite of results.suitesThatDidNotLoad) failures.push(`${name}: did not load ${suite}`);
  return results;
}

for (const { directory, manifest } of projects) if (manifest.scripts?.test) countJestResults(manifest.name, directory);

// The serialised target (tools/agent-clis): every test that starts a real agent CLI, one file at a
// time and after the Nx tests, so no two CLIs and no other project's tests share the two cores.
// Its tests find the CLIs in the installer's cache and never install; outside CI a missing CLI's
// test is skipped (under CI it fails), and this says how to install them.
const agentCliProject = path.join(workspaceRoot, 'tools', 'agent-clis');
rmSync(path.join(agentCliProject, 'test-results'), { recursive: true, force: true });
await timed('agent CLI tests (serialised)', () => run('pnpm', ['--dir', agentCliProject, 'run', 'test-serialised']));
const agentCliResults = countJestResults('agent CLI tests', agentCliProject);
if (agentCliResults?.numPendingTests > 0)
  console.log(
    `\nagent CLI tests: ${agentCliResults.numPendingTests} skipped, their CLI not installed; install the pinned CLIs with \`node tools/agent-clis/install.mjs\` (CI does, and fails a missing one)`,
  );

const packCheckResults = path.join(workspaceRoot, 'tools', 'pack-and-install', 'test-results', 'pack-and-install.json');
rmSync(packCheckResults, { force: true });
const packCheck = await timed('pack-and-install', () => run('node', [path.join(workspaceRoot, 'tools', 'pack-and-install', 'pack-and-install.mjs')]));
if (existsSync(packCheckResults)) {
  const results = JSON.parse(readFileSync(packCheckResults, 'utf8'));
  passed += results.passed.length;
  for (const check of results.failed) failures.push(`pack-and-install: ${check}`);
} else {
  failures.push(`pack-and-install: exited with ${packCheck.code} before reporting`);
}

// The examples of the READMEs, docs and --help, run as written against the packed tarballs: each
// example is one check, as each pack-and-install check is.
const exampleResults = path.join(workspaceRoot, 'tools', 'examples', 'test-results', 'examples.json');
rmSync(exampleResults, { force: true });
const examples = await timed('examples', () => run('node', [path.join(workspaceRoot, 'tools', 'examples', 'run-examples.mjs')]));
if (existsSync(exampleResults)) {
  const results = JSON.parse(readFileSync(exampleResults, 'utf8'));
  passed += results.passed.length;
  for (const check of results.failed) failures.push(`examples: ${check}`);
} else {
  failures.push(`examples: exited with ${examples.code} before reporting`);
}

// Changesets are checked against a base ref where one is known: CI's clean checkout has none.
const baseRef = process.env.SKILLOPT_BASE_REF;
if (baseRef) {
  const changesets = await run('node', [path.join(workspaceRoot, 'tools', 'changesets', 'check-changesets.mjs'), baseRef]);
  if (changesets.code === 0) passed += 1;
  else failures.push(`changesets: a published package changed since ${baseRef} without a changeset (above)`);
} else {
  console.log('\nchangesets: skipped (no SKILLOPT_BASE_REF; the pre-push hook checks them against the upstream branch)');
}

if (statusBefore === undefined) console.log('\ntree: not a git work tree, so what the check wrote is not looked for');
else {
  const left = [...(treeStatus() ?? [])].filter((line) => !statusBefore.has(line));
  if (left.length === 0) passed += 1;
  else failures.push(`the check left the tree changed (git status --porcelain): ${left.join(', ')}; write it under a temp folder or an ignored one`);
}

// .ci/run's phases before this one (installing pnpm, the workspace, the agent CLIs), then this
// check's own: printed here, above the closing line, so `N passed, N failed` stays the last line.
const ciPhaseTimes = (process.env.SKILLOPT_CI_PHASE_TIMES ?? '')
  .split(',')
  .filter(Boolean)
  .map((entry) => [entry.slice(0, entry.lastIndexOf('=')), Number(entry.slice(entry.lastIndexOf('=') + 1))]);
const formatPhases = (phases) => phases.map(([phase, seconds]) => `${phase} ${seconds.toFixed(0)} s`).join(', ');
console.log('\nWall time by phase:');
if (ciPhaseTimes.length > 0) console.log(`  .ci/run: ${formatPhases(ciPhaseTimes)}`);
console.log(`  check: ${formatPhases(phaseTimes)}; ${((performance.now() - checkStarted) / 1000).toFixed(0)} s in all`);

if (failures.length) {
  console.log('\nFailures:');
  for (const failure of failures) console.log(`  - ${failure}`);
}
console.log(`\n${passed} passed, ${failures.length} failed`);
process.exitCode = failures.length || nx.code ? 1 : 0;
