#!/usr/bin/env node
// Runs every example the docs teach, as written, against the packed tarballs (tools/README.md,
// "The example runner"). First, with the npm registry for third-party dependencies: pack every
// public package and npm-install all of them into a fresh examples project, so an example that
// installs any of our packages is served from its tarball and `skillopt` is the installed bin.
// Then, with no network but loopback (a user and network namespace, `unshare -rn`), each document's
// examples in a fresh directory of that project (run-documents.mjs). The skip list
// (skip-list.json) names the only commands not run, each needing an API key or a non-loopback host;
// an entry that matches no command is stale and fails. Results go to test-results/examples.json.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packPackage, publicPackages, withInternalDependencies, workspaceRoot } from '../pack-and-install/workspace-packages.mjs';
import { agentCliInstalls, globalInstallPackages, parsePackageArgument } from './agent-cli-installs.mjs';
import { collectDocuments } from './extract-examples.mjs';
import { createCheckRecorder, secondsSince } from '../pack-and-install/check-recorder.mjs';

const toolDirectory = path.dirname(fileURLToPath(import.meta.url));
const SKIP_KINDS = new Set(['needs-key', 'non-loopback-host']);
const results = { passed: [], failed: [], skipped: [], repositoryCheckout: [] };
const startedAt = Date.now();
// Documents named on the command line (`pnpm examples docs/backends/codex.md`) are the only ones run.
const onlyDocuments = process.argv.slice(2);

const record = createCheckRecorder(results);

/** The skip list's entries that are well formed and match a command; the others fail as checks. */
function checkedSkips(documents) {
  const { skips } = JSON.parse(readFileSync(path.join(toolDirectory, 'skip-list.json'), 'utf8'));
  const commands = new Set(
    documents.flatMap(({ document, examples }) => examples.flatMap((example) => example.commands.map((command) => `${document}\n${command}`))),
  );
  const valid = [];
  for (const skip of skips) {
    if (onlyDocuments.length > 0 && !onlyDocuments.includes(skip.document)) continue;
    const name = `skip-list.json entry for ${skip.document}: ${skip.command}`;
    record(name, () => {
      if (!SKIP_KINDS.has(skip.kind))
        throw new Error(`kind is ${JSON.stringify(skip.kind)}; a skip needs an API key (needs-key) or a non-loopback host (non-loopback-host)`);
      if (typeof skip.reason !== 'string' || skip.reason.trim() === '') throw new Error('the entry gives no reason');
      if (!commands.has(`${skip.document}\n${skip.command}`)) throw new Error('stale: no example of that document runs this command any more');
      valid.push(skip);
    });
  }
  return valid;
}

/** The environment the examples run in: no API key or other credential, no colour, our bin first on PATH, npm offline from its cache. */
function exampleEnvironment(projectDirectory, npmCache) {
  return {
    PATH: `${path.join(projectDirectory, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}`,
    LANG: 'C.UTF-8',
    TMPDIR: os.tmpdir(),
    NO_COLOR: '1',
    npm_config_cache: npmCache,
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_loglevel: 'error',
    EXAMPLES_TARBALLS: path.join(projectDirectory, '..', 'tarballs.json'),
  };
}

const underCi = () => Boolean(process.env.CI) && !['false', '0'].includes(process.env.CI);

/**
 * The documents whose globally installed agent CLIs are all in the agent-CLI cache. A document that
 * needs one the cache lacks fails under CI (skipping it would hide a broken install) and is skipped
 * elsewhere, as the agent-CLI tests are.
 */
function withAgentClisPresent(documents, agentClis) {
  return documents.filter(({ document, examples }) => {
    const missing = [
      ...new Set(
        examples
          .flatMap((example) => example.commands.flatMap(globalInstallPackages))
          .map((argument) => agentClis[parsePackageArgument(argument).name]?.problem),
      ),
    ].filter(Boolean);
    if (missing.length === 0) return true;
    if (underCi())
      record(`${document}: the agent CLIs it installs`, () => {
        throw new Error(missing.join('\n'));
      });
    else {
      for (const problem of missing) {
        results.skipped.push({ location: document, kind: 'agent-cli-not-installed', reason: problem });
        console.log(`skip - ${document} (agent-cli-not-installed: ${problem})`);
      }
    }
    return false;
  });
}

function networkIsolation() {
  const probe = spawnSync('unshare', ['-rn', 'sh', '-c', 'ip link set lo up'], { stdio: 'pipe' });
  if (probe.status === 0) return (command) => ['unshare', ['-rn', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', ...command]];
  console.log(`examples: no network namespace here (unshare -rn: ${String(probe.stderr || probe.error).trim()}); the examples run with the host's network`);
  return (command) => [command[0], command.slice(1)];
}

const workDirectory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-examples-'));
try {
  let documents = [];
  record("extract the examples of the READMEs, docs/**/*.md and the commands' --help", () => {
    documents = collectDocuments(workspaceRoot);
    if (onlyDocuments.length > 0) {
      const unknown = onlyDocuments.filter((name) => !documents.some(({ document }) => document === name));
      if (unknown.length > 0) throw new Error(`no such document with examples: ${unknown.join(', ')}`);
      documents = documents.filter(({ document }) => onlyDocuments.includes(document));
    }
    return `${documents.reduce((count, document) => count + document.examples.length, 0)} examples in ${documents.length} documents`;
  });
  for (const document of documents) for (const example of document.examples) if (example.repositoryCheckout) results.repositoryCheckout.push(example.location);
  const agentClis = agentCliInstalls();
  const runnable = withAgentClisPresent(
    documents
      .map((document) => ({ ...document, examples: document.examples.filter((example) => !example.repositoryCheckout) }))
      .filter((document) => document.examples.length > 0),
    agentClis,
  );
  const skips = checkedSkips(runnable);

  const packages = publicPackages();
  const names = [...packages.keys()].sort();
  const tarballDirectory = path.join(workDirectory, 'tarballs');
  mkdirSync(tarballDirectory);
  const tarballs = {};
  const packed = record(`pnpm pack the ${names.length} public packages`, () => {
    for (const name of names) tarballs[name] = packPackage(packages.get(name).directory, tarballDirectory);
  });
  const projectDirectory = path.join(workDirectory, 'project');
  mkdirSync(projectDirectory);
  writeFileSync(path.join(projectDirectory, 'package.json'), JSON.stringify({ name: 'examples', version: '1.0.0', private: true }, null, 2));
  const installed =
    packed &&
    documents.length > 0 &&
    record(`npm install the ${names.length} tarballs into a fresh examples project`, () => {
      execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...Object.values(tarballs)], { cwd: projectDirectory, stdio: 'pipe' });
    });

  if (installed) {
    const internalDependencies = Object.fromEntries(names.map((name) => [name, withInternalDependencies([name], packages)]));
    writeFileSync(path.join(workDirectory, 'tarballs.json'), JSON.stringify({ tarballs, internalDependencies, agentClis }, null, 2));
    const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
    const planPath = path.join(workDirectory, 'plan.json');
    const documentResultsPath = path.join(workDirectory, 'document-results.json');
    writeFileSync(
      planPath,
      JSON.stringify({
        documents: runnable,
        skips,
        environment: exampleEnvironment(projectDirectory, npmCache),
        documentsDirectory: path.join(projectDirectory, 'documents'),
        stateDirectory: path.join(workDirectory, 'state'),
        resultsPath: documentResultsPath,
        // The npm the examples' own npm shim passes everything but installs to.
        realNpm: execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim(),
      }),
    );
    const [command, args] = networkIsolation()([process.execPath, path.join(toolDirectory, 'run-documents.mjs'), planPath]);
    const run = spawnSync(command, args, { stdio: 'inherit' });
    try {
      const documentResults = JSON.parse(readFileSync(documentResultsPath, 'utf8'));
      results.passed.push(...documentResults.passed);
      results.failed.push(...documentResults.failed);
      results.skipped.push(...documentResults.skipped);
    } catch {
      results.failed.push(`run-documents.mjs exited with ${run.status ?? run.signal} before reporting`);
    }
  }
} finally {
  rmSync(workDirectory, { recursive: true, force: true });
  const resultsDirectory = path.join(toolDirectory, 'test-results');
  mkdirSync(resultsDirectory, { recursive: true });
  results.durationSeconds = Number(secondsSince(startedAt));
  writeFileSync(path.join(resultsDirectory, 'examples.json'), JSON.stringify(results, null, 2));
  console.log(
    `examples: ${results.passed.length} checks ok, ${results.failed.length} not ok, ${results.skipped.length} skipped (skip-list.json, agent CLIs not installed), ` +
      `${results.repositoryCheckout.length} blocks for a repository checkout not run; took ${results.durationSeconds} s`,
  );
}
process.exitCode = results.failed.length ? 1 : 0;
