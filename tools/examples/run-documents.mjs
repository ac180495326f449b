#!/usr/bin/env node
// The example runner's second half, run by run-examples.mjs inside a network namespace that has
// only loopback: each document's examples, in order, in a fresh directory of the examples project.
// One example (a fenced block, or one command example of the CLI) is one bash script; the working
// directory and exported variables carry over to the document's next example. Long-running
// commands (SERVER_COMMANDS) are started in the background, awaited until they print a loopback
// URL (a server's http://, or the redis:// a worker takes jobs from), kept alive for the
// document's later examples and stopped when the document ends.
// Arguments: the plan file run-examples.mjs wrote; results go to the file the plan names.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const toolDirectory = path.dirname(fileURLToPath(import.meta.url));
const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const results = { passed: [], failed: [], skipped: [] };

// A command is long-running when, after any `NAME=value` prefixes, it starts with one of these.
const SERVER_COMMANDS = [
  'skillopt sim serve',
  'npx @skillopt/cli sim serve',
  'skillopt dashboard',
  'npx @skillopt/cli dashboard',
  'skillopt worker',
  'npx @skillopt/cli worker',
];
const EXAMPLE_TIMEOUT_MS = 300_000;
const READY_TIMEOUT_TENTHS = 600;

const quote = (text) => `'${text.replaceAll("'", `'\\''`)}'`;

function isServerCommand(command) {
  const withoutAssignments = command.replace(/^(\s*[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*/, '');
  return SERVER_COMMANDS.some((server) => withoutAssignments === server || withoutAssignments.startsWith(`${server} `));
}

const PREAMBLE = `set -eo pipefail
trap 'examples_status=$?; pwd > "$EXAMPLES_STATE/cwd"; export -p > "$EXAMPLES_STATE/environment"; exit $examples_status' EXIT
trap 'echo "examples: this command failed with exit code $?: $BASH_COMMAND" >&2' ERR
cd "$(cat "$EXAMPLES_STATE/cwd")"
. "$EXAMPLES_STATE/environment"
examples_wait_until_ready() {
  local log="$1" pid="$2" tenths=0
  until grep -qE '(http|redis)://127\\.0\\.0\\.1:[0-9]' "$log" 2>/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null; then cat "$log"; echo "examples: the server exited before printing its loopback URL" >&2; return 1; fi
    if [ "$tenths" -ge ${READY_TIMEOUT_TENTHS} ]; then cat "$log"; echo "examples: the server printed no loopback URL within 60 s" >&2; return 1; fi
    sleep 0.1; tenths=$((tenths + 1))
  done
  cat "$log"
}
`;

function exampleScript(example, skipped, state) {
  const lines = [PREAMBLE];
  example.commands.forEach((command, index) => {
    const skip = skipped.get(command);
    if (skip) {
      lines.push(`echo ${quote(`examples: skipped (${skip.kind}): ${command}`)}`);
    } else if (isServerCommand(command)) {
      const log = path.join(state, `server-${example.serial}-${index}.log`);
      lines.push(`setsid bash -c ${quote(command)} > ${quote(log)} 2>&1 < /dev/null &`);
      lines.push(`echo $! >> "$EXAMPLES_STATE/servers"`);
      lines.push(`examples_wait_until_ready ${quote(log)} $!`);
    } else {
      lines.push(command);
    }
  });
  return `${lines.join('\n')}\n`;
}

function stopServers(state) {
  let pids = [];
  try {
    pids = readFileSync(path.join(state, 'servers'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return;
  }
  const alive = (pid) => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (const pid of pids) if (alive(pid)) process.kill(-pid, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (pids.some(alive) && Date.now() < deadline) spawnSync('sleep', ['0.1']);
  for (const pid of pids) if (alive(pid)) process.kill(-pid, 'SIGKILL');
}

function lastLines(text, count) {
  const lines = text.trimEnd().split('\n');
  return (lines.length > count ? ['…', ...lines.slice(-count)] : lines).join('\n');
}

let serial = 0;
for (const { document, examples } of plan.documents) {
  const slug = document.replace(/[^A-Za-z0-9]+/g, '-');
  const directory = path.join(plan.documentsDirectory, slug);
  const state = path.join(plan.stateDirectory, slug);
  mkdirSync(directory, { recursive: true });
  mkdirSync(state, { recursive: true });
  mkdirSync(path.join(state, 'home'), { recursive: true });
  // A fresh directory inside the examples project, as a folder of a user's project: npm installs
  // go to the project (the nearest package.json), where every package is installed already, and
  // Node resolves the installed packages from here.
  // A global `npm install -g` of an agent CLI links its cached binary here; one of our packages is
  // installed from its tarball under a global prefix of the document's own (npm-install.mjs).
  const globalBin = path.join(state, 'global-bin');
  const globalPrefix = path.join(state, 'global');
  mkdirSync(globalBin, { recursive: true });
  // `npm` first on PATH is a shim: installs go through npm-install.mjs, everything else to npm
  // itself. A shim rather than a shell function, so that a program an example runs (a plugin's
  // installer putting a backend beside it) is served from the tarballs too.
  const npmShim = path.join(state, 'npm-shim');
  mkdirSync(npmShim, { recursive: true });
  writeFileSync(
    path.join(npmShim, 'npm'),
    `#!/bin/sh\ncase "$1" in install | i | add) shift; exec node "$EXAMPLES_NPM_INSTALL" "$@" ;; *) exec "$EXAMPLES_REAL_NPM" "$@" ;; esac\n`,
    { mode: 0o755 },
  );
  const environment = {
    ...plan.environment,
    PATH: [npmShim, globalBin, plan.environment.PATH].join(path.delimiter),
    EXAMPLES_REAL_NPM: plan.realNpm,
    EXAMPLES_GLOBAL_BIN: globalBin,
    EXAMPLES_GLOBAL_PREFIX: globalPrefix,
    HOME: path.join(state, 'home'),
    EXAMPLES_STATE: state,
    EXAMPLES_NPM_INSTALL: path.join(toolDirectory, 'npm-install.mjs'),
  };
  writeFileSync(path.join(state, 'cwd'), directory);
  writeFileSync(path.join(state, 'environment'), '');
  const skipped = new Map(plan.skips.filter((skip) => skip.document === document).map((skip) => [skip.command, skip]));
  console.log(`# ${document} (${examples.length} examples, in ${path.relative(plan.documentsDirectory, directory)})`);
  try {
    for (const example of examples) {
      serial += 1;
      const name = `${example.location}: ${example.commands.join(' ; ').replace(/\s*\\\n\s*/g, ' ')}`;
      for (const command of example.commands) {
        const skip = skipped.get(command);
        if (skip) {
          results.skipped.push({ location: example.location, command, kind: skip.kind, reason: skip.reason });
          console.log(`skip - ${example.location}: ${command} (${skip.kind}: ${skip.reason})`);
        }
      }
      if (example.commands.every((command) => skipped.has(command))) continue;
      const scriptPath = path.join(state, `example-${serial}.sh`);
      writeFileSync(scriptPath, exampleScript({ ...example, serial }, skipped, state));
      const startedAt = Date.now();
      const run = spawnSync('bash', [scriptPath], {
        env: environment,
        encoding: 'utf8',
        timeout: EXAMPLE_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        maxBuffer: 64 * 1024 * 1024,
      });
      const took = `${((Date.now() - startedAt) / 1000).toFixed(1)} s`;
      const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
      if (run.status === 0) {
        results.passed.push(name);
        console.log(`ok - ${name} (${took})`);
      } else {
        const why = run.error?.code === 'ETIMEDOUT' ? `timed out after ${EXAMPLE_TIMEOUT_MS / 1000} s` : `exited with ${run.status ?? run.signal}`;
        const shown = lastLines(output, 40);
        results.failed.push(`${name}: ${why}\n${shown}`);
        console.log(`not ok - ${name}: ${why} (${took})\n${shown.replace(/^/gm, '    ')}`);
      }
    }
  } finally {
    stopServers(state);
  }
}
writeFileSync(plan.resultsPath, JSON.stringify(results, null, 2));
