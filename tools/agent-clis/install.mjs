#!/usr/bin/env node
// Installs every agent CLI of manifest.json, at its pinned version, into the cache folder
// (SKILLOPT_AGENT_CLIS_DIR, else .cache/agent-clis of the repository), each in an npm prefix of its
// own, then runs each one's `--version` once with the cache's home so Copilot's first-run
// self-extraction (about 235 MB) lands in the cache, not in a test's home. It writes the record
// (installed.json: each binary and the version it printed) that the tests read to find the
// binaries. Tests never install; this script is the only thing that does.
//
// Under a lock (install.lock in the cache): a second install waits for the first, then finds the
// pinned versions present and installs nothing. A CLI whose pinned version is present is not
// reinstalled; each install goes to a scratch prefix first and is renamed into place, so an
// interrupted one never looks installed.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const workspaceRoot = path.resolve(here, '..', '..');
const manifest = JSON.parse(readFileSync(path.join(here, 'manifest.json'), 'utf8'));
const cacheDirectory = path.resolve(process.env[manifest.cacheDirectoryVariable] || path.join(workspaceRoot, manifest.defaultCacheDirectory));
const lockDirectory = path.join(cacheDirectory, 'install.lock');
const homeDirectory = path.join(cacheDirectory, 'home');
// Copilot's first `--version` unpacks its package; on a busy two-core machine that takes a while.
const VERSION_TIMEOUT_MS = 300_000;
const LOCK_WAIT_MS = 30 * 60_000;
// A lock folder whose owner file never appeared (its creator died at once) is stale after this.
const OWNERLESS_LOCK_STALE_MS = 60_000;

const sleep = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));

function processIsAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Takes the cache's lock, waiting while another live install holds it; returns its release. */
async function acquireLock() {
  mkdirSync(cacheDirectory, { recursive: true });
  const ownerFile = path.join(lockDirectory, 'owner.json');
  const deadline = Date.now() + LOCK_WAIT_MS;
  let announced = false;
  for (;;) {
    try {
      mkdirSync(lockDirectory);
      writeFileSync(ownerFile, JSON.stringify({ pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() }));
      return () => rmSync(lockDirectory, { recursive: true, force: true });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let owner;
    try {
      owner = JSON.parse(readFileSync(ownerFile, 'utf8'));
    } catch {
      owner = undefined;
    }
    const stale = owner
      ? owner.host === os.hostname() && !processIsAlive(owner.pid)
      : existsSync(lockDirectory) && Date.now() - statSync(lockDirectory).mtimeMs > OWNERLESS_LOCK_STALE_MS;
    if (stale) {
      rmSync(lockDirectory, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `the cache ${cacheDirectory} is still locked by ${owner ? `pid ${owner.pid} on ${owner.host} since ${owner.startedAt}` : 'an install'} after ${LOCK_WAIT_MS / 60_000} minutes`,
      );
    }
    if (!announced && owner) {
      console.log(`agent-clis: waiting for the install of pid ${owner.pid} (started ${owner.startedAt}) to finish`);
      announced = true;
    }
    await sleep(1_000);
  }
}

/** Runs a command; resolves with its exit code and its output (both streams, the last 4000 characters). */
function run(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...options });
    let output = '';
    const keep = (chunk) => {
      output = (output + chunk).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = options.timeoutMs
      ? setTimeout(() => {
          output += `\n(killed after ${options.timeoutMs / 1000} s)`;
          process.kill(-child.pid, 'SIGKILL');
        }, options.timeoutMs)
      : undefined;
    child.on('error', (error) => resolve({ code: 127, output: String(error) }));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), output });
    });
  });
}

const prefixOf = (cli) => path.join(cacheDirectory, `${cli.id}-${cli.version}`);
const binaryOf = (cli) => path.join(prefixOf(cli), 'node_modules', '.bin', cli.bin);

function installedVersion(cli) {
  try {
    return JSON.parse(readFileSync(path.join(prefixOf(cli), 'node_modules', ...cli.package.split('/'), 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

async function install(cli) {
  if (installedVersion(cli) === cli.version && existsSync(binaryOf(cli))) return 'present';
  const scratch = path.join(cacheDirectory, `.${cli.id}-${cli.version}.partial`);
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  writeFileSync(path.join(scratch, 'package.json'), `${JSON.stringify({ name: `agent-cli-${cli.id}`, private: true }, null, 2)}\n`);
  const npm = await run('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--loglevel=error', '--prefix', scratch, `${cli.package}@${cli.version}`], {
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  if (npm.code !== 0) {
    rmSync(scratch, { recursive: true, force: true });
    throw new Error(`npm install ${cli.package}@${cli.version} exited with ${npm.code}:\n${npm.output.trim()}`);
  }
  rmSync(prefixOf(cli), { recursive: true, force: true });
  renameSync(scratch, prefixOf(cli));
  return 'installed';
}

/** Prefixes of versions the manifest no longer pins, and scratch prefixes an interrupted install left. */
function removeUnpinned() {
  const wanted = new Set(manifest.clis.map((cli) => path.basename(prefixOf(cli))));
  const ids = new Set(manifest.clis.map((cli) => cli.id));
  for (const entry of readdirSync(cacheDirectory)) {
    const id = entry.replace(/^\./, '').replace(/-[^-]+$/, '');
    if ((ids.has(id) && !wanted.has(entry)) || entry.endsWith('.partial')) rmSync(path.join(cacheDirectory, entry), { recursive: true, force: true });
  }
}

/** The environment a CLI's `--version` runs with: the cache's home, the CLI's offline settings, nothing else of ours. */
function versionEnvironment(cli) {
  return {
    PATH: process.env.PATH ?? '',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    HOME: homeDirectory,
    XDG_CACHE_HOME: path.join(homeDirectory, '.cache'),
    XDG_CONFIG_HOME: path.join(homeDirectory, '.config'),
    XDG_DATA_HOME: path.join(homeDirectory, '.local', 'share'),
    XDG_STATE_HOME: path.join(homeDirectory, '.local', 'state'),
    ...cli.offlineEnvironment,
  };
}

function writeRecord(record) {
  const file = path.join(cacheDirectory, manifest.recordFile);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(record, null, 2)}\n`);
  renameSync(temporary, file);
}

/** The cache's size on disk, as `du` counts it (the CLIs' native binaries and Copilot's unpacked package dominate). */
function cacheSize() {
  try {
    return `${(Number.parseInt(execFileSync('du', ['-sk', cacheDirectory], { encoding: 'utf8' }), 10) / 1024).toFixed(0)} MiB`;
  } catch {
    return 'size unknown';
  }
}

async function main() {
  const started = Date.now();
  const release = await acquireLock();
  const releaseOnSignal = (signal) => {
    release();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', releaseOnSignal);
  process.once('SIGTERM', releaseOnSignal);
  const failures = [];
  const record = { formatVersion: 1, home: path.relative(cacheDirectory, homeDirectory), clis: {} };
  try {
    removeUnpinned();
    mkdirSync(homeDirectory, { recursive: true });
    for (const cli of manifest.clis) {
      const cliStarted = Date.now();
      const name = `${cli.id} (${cli.package}@${cli.version})`;
      let outcome;
      try {
        outcome = await install(cli);
      } catch (error) {
        failures.push(`installing ${name} failed: ${error.message}`);
        continue;
      }
      const version = await run(binaryOf(cli), ['--version'], { env: versionEnvironment(cli), cwd: homeDirectory, timeoutMs: VERSION_TIMEOUT_MS });
      const versionOutput = version.output.trim();
      if (version.code !== 0 || !versionOutput.includes(cli.version)) {
        failures.push(
          `${name}: \`${cli.bin} --version\` exited with ${version.code} and printed ${JSON.stringify(versionOutput.slice(-600))}, not the pinned version`,
        );
        continue;
      }
      record.clis[cli.id] = {
        package: cli.package,
        version: cli.version,
        binary: path.relative(cacheDirectory, binaryOf(cli)),
        versionOutput: versionOutput.split('\n').find((line) => line.includes(cli.version)),
      };
      console.log(`agent-clis: ${cli.id.padEnd(8)} ${cli.version.padEnd(8)} ${outcome.padEnd(9)} ${((Date.now() - cliStarted) / 1000).toFixed(1)} s`);
    }
    writeRecord(record);
  } finally {
    release();
  }
  console.log(`agent-clis: cache ${cacheDirectory}, ${cacheSize()}, ${((Date.now() - started) / 1000).toFixed(1)} s in all`);
  if (failures.length > 0) {
    for (const failure of failures) console.error(`agent-clis: ${failure}`);
    process.exitCode = 1;
  }
}

await main();
