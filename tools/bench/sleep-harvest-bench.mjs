#!/usr/bin/env node
// How fast and how small Sleep's harvest of Claude Code transcripts is. A corpus of generated
// sessions in the real record layout (the key order of Claude Code 2.1's records; tool results,
// their output twice as the CLI writes it, about four fifths of the bytes) spread over a year is
// written to a temporary folder, deterministically from a seed. The page cache is warmed by reading
// every file once; then each measurement runs in a fresh child process, so the peak resident memory
// is that process's own (`process.resourceUsage().maxRSS` at its exit), median of --runs:
//
//   (a) the harvester library (@skillopt/sleep's built dist) over every file, all time, every project;
//   (b) a plain Node line loop (readline) with JSON.parse on every line, over the same files;
//   (c) the CLI's own figure, `skillopt sleep harvest --claude-home <corpus> --all-projects
//       --lookback 0 --json > /dev/null`, when that command is built (apps/cli/bin/run.js);
//   (d) a one-day lookback over the year: files opened and bytes read against the corpus's.
//
//   node tools/bench/sleep-harvest-bench.mjs [--sessions 200] [--megabytes 200] [--runs 3] [--keep <dir>] [--cli <run.js>] [--json]
//
// --keep writes the corpus to <dir> and reuses it when it is already there (same sessions and
// megabytes); without it the corpus goes to a temporary folder that is removed at the end.
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// The harvest-only entry (`@skillopt/sleep/harvest`): what a process that only harvests loads.
const libraryEntry = path.join(repoRoot, 'packages', 'sleep', 'dist', 'harvest-only.js');
const usage = 'node tools/bench/sleep-harvest-bench.mjs [--sessions 200] [--megabytes 200] [--runs 3] [--keep <dir>] [--cli <run.js>] [--json]';

// The targets (#26, item 4), and the original's figures on its bench machine.
const TARGET_MEGABYTES_PER_SECOND = 490;
const TARGET_PEAK_MIB = 64;
const DAY = 86_400_000;
const CORPUS_MANIFEST = 'corpus.json';

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '200' },
    megabytes: { type: 'string', default: '200' },
    runs: { type: 'string', default: '3' },
    keep: { type: 'string' },
    cli: { type: 'string', default: path.join(repoRoot, 'apps', 'cli', 'bin', 'run.js') },
    json: { type: 'boolean', default: false },
    child: { type: 'string' },
    corpus: { type: 'string' },
    since: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

/** The files of a Claude Code home's projects folder, as the harvester would find them. */
function sessionFiles(claudeHome) {
  const root = path.join(claudeHome, 'projects');
  return readdirSync(root).flatMap((slug) =>
    readdirSync(path.join(root, slug))
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => path.join(root, slug, name)),
  );
}

// ---- Child processes: one measurement each, its result as one JSON line on stdout. ----

async function childHarvest(claudeHome, since) {
  const { harvestSessions, projectScope, sessionSourcesFor } = await import(pathToFileURL(libraryEntry).href);
  const started = process.hrtime.bigint();
  const harvest = harvestSessions({
    sources: sessionSourcesFor(['claude-code']),
    scope: projectScope('all'),
    windowFor: () => (since === undefined ? {} : { explicitStart: since }),
    // The corpus alone: no session-end log of the machine's user.
    locations: { claudeHome, sessionEndLog: path.join(claudeHome, 'session-ends.jsonl') },
    environment: {},
  });
  let sessions = 0;
  for await (const _session of harvest.sessions) sessions += 1;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const [report] = harvest.reports;
  return {
    seconds,
    sessions,
    bytesRead: report.bytesRead,
    filesFound: report.filesFound,
    filesRead: report.filesRead,
    filesSkippedUnopened: report.filesSkippedUnopened,
    corruptLines: report.corruptLineCount,
  };
}

async function childJsonParse(claudeHome) {
  const started = process.hrtime.bigint();
  let bytesRead = 0;
  let records = 0;
  for (const file of sessionFiles(claudeHome)) {
    const stream = createReadStream(file);
    stream.on('data', (chunk) => {
      bytesRead += chunk.length;
    });
    for await (const line of readline.createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })) {
      if (line !== '') {
        JSON.parse(line);
        records += 1;
      }
    }
  }
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, bytesRead, records };
}

if (values.child !== undefined) {
  const since = values.since === undefined ? undefined : Number(values.since);
  const result = values.child === 'harvest' ? await childHarvest(values.corpus, since) : await childJsonParse(values.corpus);
  process.stdout.write(`${JSON.stringify({ ...result, peakRssKib: process.resourceUsage().maxRSS })}\n`);
  process.exit(0);
}

// ---- The corpus. ----

/** mulberry32: a small seeded generator, so the same options give the same corpus. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'src test build error warning passed failed import export const function return await async module package lint type value undefined null string number file path line column expected received at node_modules dist index'.split(
    ' ',
  );

/** Command output: lines of words, paths, quotes and tabs, so JSON escapes appear as in real output. */
function outputText(next, bytes) {
  const lines = [];
  let size = 0;
  while (size < bytes) {
    const count = 4 + Math.floor(next() * 12);
    const words = [];
    for (let index = 0; index < count; index += 1) words.push(WORDS[Math.floor(next() * WORDS.length)]);
    const line = next() < 0.2 ? `  at ${words.join('.')} ("src/${words[0]}.ts":${Math.floor(next() * 400)}:\t${Math.floor(next() * 80)})` : words.join(' ');
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

const uuid = (next) => {
  const hex = () => Math.floor(next() * 16).toString(16);
  const part = (length) => Array.from({ length }, hex).join('');
  return `${part(8)}-${part(4)}-4${part(3)}-8${part(3)}-${part(12)}`;
};

/** One session's lines, in the key order Claude Code 2.1.197 writes (the shared fixtures'). */
function sessionLines(next, { sessionId, cwd, start, targetBytes }) {
  const lines = [];
  let time = start;
  const stamp = () => {
    time += 500 + Math.floor(next() * 20_000);
    return new Date(time).toISOString();
  };
  const common = { userType: 'external', entrypoint: 'cli', cwd, sessionId, version: '2.1.197', gitBranch: 'main' };
  const task = `In ${cwd}, ${outputText(next, 60 + Math.floor(next() * 300)).replace(/\n/g, ' ')}`;
  const promptId = uuid(next);
  lines.push(JSON.stringify({ type: 'queue-operation', operation: 'enqueue', timestamp: stamp(), sessionId, content: task }));
  lines.push(JSON.stringify({ type: 'queue-operation', operation: 'dequeue', timestamp: stamp(), sessionId }));
  let parent = uuid(next);
  lines.push(
    JSON.stringify({
      parentUuid: null,
      isSidechain: false,
      promptId,
      type: 'user',
      message: { role: 'user', content: task },
      uuid: parent,
      timestamp: stamp(),
      permissionMode: 'default',
      promptSource: 'cli',
      ...common,
    }),
  );
  let bytes = lines.reduce((sum, line) => sum + line.length + 1, 0);
  let toolUse = 0;
  while (bytes < targetBytes) {
    const assistantId = uuid(next);
    const toolId = `toolu_${String(toolUse).padStart(6, '0')}`;
    toolUse += 1;
    const command = `npm test -- ${WORDS[Math.floor(next() * WORDS.length)]}`;
    const said = outputText(next, 200 + Math.floor(next() * 1800));
    const assistant = {
      parentUuid: parent,
      isSidechain: false,
      message: {
        id: `msg_${assistantId.slice(0, 8)}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-4-8',
        content: [
          // Extended thinking, as Claude Code records it: the text and its signature.
          { type: 'thinking', thinking: outputText(next, 1000 + Math.floor(next() * 3000)), signature: 'E'.repeat(400 + Math.floor(next() * 400)) },
          { type: 'text', text: said },
          { type: 'tool_use', id: toolId, name: next() < 0.7 ? 'Bash' : 'Read', input: { command, description: 'Run the tests' } },
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 1200, cache_creation_input_tokens: 0, cache_read_input_tokens: 9000, output_tokens: 300, service_tier: 'standard' },
      },
      type: 'assistant',
      uuid: assistantId,
      timestamp: stamp(),
      ...common,
    };
    // Output sizes are skewed: mostly a few KB, now and then a large log.
    const outputBytes = Math.floor(next() < 0.1 ? 20_000 + next() * 60_000 : 500 + next() * 6_000);
    const output = outputText(next, outputBytes);
    const resultId = uuid(next);
    const result = {
      parentUuid: assistantId,
      isSidechain: false,
      promptId,
      type: 'user',
      message: { role: 'user', content: [{ tool_use_id: toolId, type: 'tool_result', content: output, is_error: false }] },
      uuid: resultId,
      timestamp: stamp(),
      toolUseResult: { stdout: output, stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
      sourceToolAssistantUUID: assistantId,
      ...common,
    };
    parent = resultId;
    for (const line of [JSON.stringify(assistant), JSON.stringify(result)]) {
      lines.push(line);
      bytes += line.length + 1;
    }
  }
  lines.push(
    JSON.stringify({
      parentUuid: parent,
      isSidechain: false,
      message: { id: 'msg_final', type: 'message', role: 'assistant', model: 'claude-opus-4-8', content: [{ type: 'text', text: 'All tests pass now.' }] },
      type: 'assistant',
      uuid: uuid(next),
      timestamp: stamp(),
      ...common,
    }),
  );
  lines.push(JSON.stringify({ type: 'last-prompt', lastPrompt: task.slice(0, 80), leafUuid: parent, sessionId }));
  return { text: `${lines.join('\n')}\n`, end: time };
}

/** Writes the corpus (or finds it, with --keep) and returns its folder and manifest. */
function corpus(sessions, megabytes) {
  const folder = values.keep === undefined ? mkdtempSync(path.join(os.tmpdir(), 'sleep-harvest-bench-')) : path.resolve(values.keep);
  const manifestFile = path.join(folder, CORPUS_MANIFEST);
  if (existsSync(manifestFile)) {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    if (manifest.sessions === sessions && manifest.megabytes === megabytes) return { folder, manifest, reused: true };
    rmSync(path.join(folder, 'projects'), { recursive: true, force: true });
  }
  mkdirSync(folder, { recursive: true });
  const next = random(20261202);
  const now = Date.now();
  const targetBytes = (megabytes * 1e6) / sessions;
  const projects = Array.from({ length: 8 }, (_, index) => `/home/dev/work/project-${index}`);
  let toolResultBytes = 0;
  let totalBytes = 0;
  let lastDayFiles = 0;
  for (let index = 0; index < sessions; index += 1) {
    const cwd = projects[index % projects.length];
    // Spread over a year; every 50th session falls on the last day, so a one-day lookback has some to read.
    const start = index % 50 === 0 ? now - DAY / 2 - next() * (DAY / 4) : now - DAY - next() * 364 * DAY;
    const sessionId = uuid(next);
    const { text, end } = sessionLines(next, { sessionId, cwd, start, targetBytes: targetBytes * (0.5 + next()) });
    const slugFolder = path.join(folder, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
    mkdirSync(slugFolder, { recursive: true });
    const file = path.join(slugFolder, `${sessionId}.jsonl`);
    writeFileSync(file, text);
    utimesSync(file, new Date(end), new Date(end));
    totalBytes += Buffer.byteLength(text);
    for (const line of text.split('\n')) if (line.includes('"tool_use_id"')) toolResultBytes += Buffer.byteLength(line) + 1;
    if (end >= now - DAY) lastDayFiles += 1;
  }
  const manifest = { sessions, megabytes, now, totalBytes, toolResultBytes, lastDayFiles };
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  return { folder, manifest, reused: false };
}

async function warmPageCache(files) {
  const buffer = Buffer.allocUnsafe(1 << 20);
  for (const file of files) {
    const handle = await open(file, 'r');
    while ((await handle.read(buffer, 0, buffer.length, null)).bytesRead > 0);
    await handle.close();
  }
}

// ---- Measurements. ----

function runChild(mode, claudeHome, extra = []) {
  const result = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', mode, '--corpus', claudeHome, ...extra], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (result.status !== 0) throw new Error(`the ${mode} child failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1));
}

const median = (numbers) => [...numbers].sort((left, right) => left - right)[Math.floor(numbers.length / 2)];

function measure(runs, once) {
  const results = Array.from({ length: runs }, once);
  return {
    megabytesPerSecond: median(results.map((result) => result.bytesRead / 1e6 / result.seconds)),
    peakMib: median(results.map((result) => result.peakRssKib / 1024)),
    seconds: median(results.map((result) => result.seconds)),
    last: results.at(-1),
  };
}

/** The CLI's figure, when `sleep harvest` is built: wall time of the whole command, and its peak memory by GNU time when installed. */
function measureCli(runs, claudeHome, totalBytes) {
  const bin = path.resolve(values.cli);
  const commandFile = path.join(repoRoot, 'apps', 'cli', 'dist', 'commands', 'sleep', 'harvest.js');
  if (!existsSync(bin) || !existsSync(commandFile)) return undefined;
  const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
  const results = Array.from({ length: runs }, () => {
    const argv = [process.execPath, bin, 'sleep', 'harvest', '--claude-home', claudeHome, '--all-projects', '--lookback', '0', '--json'];
    const started = process.hrtime.bigint();
    // The records go to /dev/null, as a developer's redirect would send them: the figure is the harvest's, not a pipe's.
    const result = spawnSync(gnuTime ?? argv[0], gnuTime === undefined ? argv.slice(1) : ['-f', '%M', ...argv], {
      encoding: 'utf8',
      stdio: ['ignore', 'ignore', 'pipe'],
      maxBuffer: 1 << 20,
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (result.status !== 0) throw new Error(`the CLI failed: ${result.stderr}`);
    const peakRssKib = gnuTime === undefined ? Number.NaN : Number(result.stderr.trim().split('\n').at(-1));
    return { seconds, bytesRead: totalBytes, peakRssKib };
  });
  return {
    megabytesPerSecond: median(results.map((result) => result.bytesRead / 1e6 / result.seconds)),
    peakMib: median(results.map((result) => result.peakRssKib / 1024)),
    seconds: median(results.map((result) => result.seconds)),
  };
}

if (values.help) {
  console.log(usage);
  process.exit(0);
}
const sessions = Number.parseInt(values.sessions, 10);
const megabytes = Number.parseFloat(values.megabytes);
const runs = Number.parseInt(values.runs, 10);
if (![sessions, megabytes, runs].every((value) => Number.isFinite(value) && value > 0)) {
  console.error(usage);
  process.exit(2);
}
if (!existsSync(libraryEntry)) {
  console.error('packages/sleep is not built: run `npx tsup` in packages/sleep first.');
  process.exit(2);
}

const { folder, manifest, reused } = corpus(sessions, megabytes);
try {
  const files = sessionFiles(folder);
  await warmPageCache(files);
  const library = measure(runs, () => runChild('harvest', folder));
  const jsonParse = measure(runs, () => runChild('json-parse', folder));
  const cli = measureCli(runs, folder, manifest.totalBytes);
  // The same command over an empty Claude home: what starting the CLI costs before any harvest.
  const emptyHome = mkdtempSync(path.join(os.tmpdir(), 'sleep-harvest-bench-empty-'));
  mkdirSync(path.join(emptyHome, 'projects'));
  const cliStart = cli === undefined ? undefined : measureCli(runs, emptyHome, 0);
  rmSync(emptyHome, { recursive: true, force: true });
  const lookback = runChild('harvest', folder, ['--since', String(manifest.now - DAY)]);
  const summary = {
    machine: { cpus: os.cpus().length, node: process.version },
    corpus: {
      folder: values.keep === undefined ? '(temporary)' : folder,
      reused,
      sessions,
      files: files.length,
      bytes: manifest.totalBytes,
      toolResultShare: manifest.toolResultBytes / manifest.totalBytes,
      lastDayFiles: manifest.lastDayFiles,
    },
    runs,
    pageCache: 'warmed: every file read once before timing',
    library: {
      megabytesPerSecond: library.megabytesPerSecond,
      peakMib: library.peakMib,
      seconds: library.seconds,
      sessions: library.last.sessions,
      bytesRead: library.last.bytesRead,
      corruptLines: library.last.corruptLines,
      meetsSpeed: library.megabytesPerSecond >= TARGET_MEGABYTES_PER_SECOND,
      meetsMemory: library.peakMib <= TARGET_PEAK_MIB,
    },
    jsonParseLoop: {
      megabytesPerSecond: jsonParse.megabytesPerSecond,
      peakMib: jsonParse.peakMib,
      seconds: jsonParse.seconds,
      records: jsonParse.last.records,
    },
    cli: cli ?? 'not built',
    cliStartup: cliStart === undefined ? 'not built' : { seconds: cliStart.seconds, peakMib: cliStart.peakMib },
    oneDayLookback: {
      filesFound: lookback.filesFound,
      filesRead: lookback.filesRead,
      filesSkippedUnopened: lookback.filesSkippedUnopened,
      bytesRead: lookback.bytesRead,
      bytesTotal: manifest.totalBytes,
      sessions: lookback.sessions,
      readOnlyThatDay: lookback.filesRead === manifest.lastDayFiles,
    },
  };
  if (values.json) console.log(JSON.stringify(summary, null, 2));
  else {
    const mark = (ok) => (ok ? 'pass' : 'FAIL');
    const row = (label, figures, speedMark = '', memoryMark = '') =>
      `${label.padEnd(34)} ${figures.megabytesPerSecond.toFixed(0).padStart(6)} MB/s ${speedMark.padEnd(5)} ${figures.peakMib.toFixed(1).padStart(6)} MiB ${memoryMark.padEnd(5)} ${figures.seconds.toFixed(3)} s`;
    console.log(
      `Sleep harvest bench: ${sessions} Claude Code sessions, ${(manifest.totalBytes / 1e6).toFixed(1)} MB (tool results ${(100 * summary.corpus.toolResultShare).toFixed(0)}% of the bytes), ${summary.machine.cpus} cores, Node ${process.version}`,
    );
    console.log(`Page cache warmed (every file read once) before timing; each figure the median of ${runs} fresh processes.`);
    console.log(`${'measurement'.padEnd(34)} ${'speed'.padStart(11)}       ${'peak RSS'.padStart(10)}       wall`);
    console.log(row('harvester library (all time)', library, mark(summary.library.meetsSpeed), mark(summary.library.meetsMemory)));
    console.log(row('readline + JSON.parse every line', jsonParse));
    if (cli === undefined) console.log(`${'CLI sleep harvest'.padEnd(34)} CLI: not built`);
    else {
      console.log(row('CLI sleep harvest (whole command)', cli));
      const harvestSeconds = cli.seconds - cliStart.seconds;
      console.log(
        `${'  of which CLI start-up (empty home)'.padEnd(34)} ${cliStart.seconds.toFixed(3)} s, ${cliStart.peakMib.toFixed(1)} MiB; the rest ${harvestSeconds.toFixed(3)} s = ${(manifest.totalBytes / 1e6 / harvestSeconds).toFixed(0)} MB/s`,
      );
    }
    console.log(
      `targets: ≥ ${TARGET_MEGABYTES_PER_SECOND} MB/s and ≤ ${TARGET_PEAK_MIB} MiB for the library (the original: 245 MB/s at 31 MiB; its JSON.parse loop about 294 MB/s)`,
    );
    console.log(
      `one-day lookback: ${lookback.filesRead} of ${lookback.filesFound} files opened (${lookback.filesSkippedUnopened} left unopened), ${(lookback.bytesRead / 1e6).toFixed(2)} of ${(manifest.totalBytes / 1e6).toFixed(1)} MB read, ${lookback.sessions} sessions — ${summary.oneDayLookback.readOnlyThatDay ? 'only that day’s files' : 'MORE than that day’s files'}`,
    );
  }
} finally {
  if (values.keep === undefined) rmSync(folder, { recursive: true, force: true });
}
