#!/usr/bin/env node
// Keeps the plugins' files true to the engine: the actions/options block of every plugin's
// markdown is generated from @skillopt/sleep's command definitions, and each runtime manifest's
// version follows its package's. `--write` rewrites what is out of date; without it the script
// lists it and exits 1; `--json` prints the block and what is stale, for the parity test.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIRST_PARTY_PACKAGES } from '@skillopt/core';
import { SLEEP_ACTIONS } from '@skillopt/sleep/commands';

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BLOCK_BEGIN = '<!-- skillopt-sleep-actions:begin -->';
const BLOCK_END = '<!-- skillopt-sleep-actions:end -->';
const RUNTIME_MANIFESTS = ['.claude-plugin/plugin.json', '.cursor-plugin/plugin.json'];
// Options every action has, or that only point a source elsewhere: named once, after the table.
const COMMON_OPTIONS = new Set(['help']);
const isLocationOption = (name) =>
  name.endsWith('-home') || ['copilot-session-store', 'vscode-workspace-storage', 'opencode-db', 'devin-transcripts'].includes(name);

/** The published backends, the simulated one first (the default). */
function backendNames() {
  return FIRST_PARTY_PACKAGES.backend.filter((known) => known.published).map((known) => known.id);
}

/** The generated block: every action, its options, the backends. */
function actionsBlock() {
  const rows = SLEEP_ACTIONS.map((action) => {
    const options = Object.keys(action.options).filter((name) => !COMMON_OPTIONS.has(name) && !isLocationOption(name));
    return `| \`${action.name}\` | ${action.summary} | ${options.map((name) => `\`--${name}\``).join(', ')} |`;
  });
  const locations = [...new Set(SLEEP_ACTIONS.flatMap((action) => Object.keys(action.options).filter(isLocationOption)))];
  const [simulated, ...others] = backendNames();
  return [
    BLOCK_BEGIN,
    "<!-- Generated from @skillopt/sleep's command definitions by tools/plugins/plugin-files.mjs --write: edit those, not this block. -->",
    '',
    '| action | what it does | options |',
    '|---|---|---|',
    ...rows,
    '',
    `Every action takes \`--help\`. \`harvest\`, \`mine\`, \`run\` and \`schedule\` also take where a source lives, if not its default: ${locations.map((name) => `\`--${name}\``).join(', ')}.`,
    '',
    `Backends, for \`--backend\`: \`${simulated}\` (the default: the simulated model, no key, no network), ${others.map((name) => `\`${name}\``).join(', ')}. Each is the npm package \`@skillopt/backends-<name>\`, installed beside the plugin by its installer's \`--backend <name>\`; the keys come from the environment (\`OPENAI_API_KEY\`, \`ANTHROPIC_API_KEY\`, …), never from a file the plugin writes.`,
    BLOCK_END,
  ].join('\n');
}

/** The plugin packages of the repository: packages/plugin-*. */
function pluginPackages() {
  const packages = path.join(repository, 'packages');
  return readdirSync(packages)
    .filter((name) => name.startsWith('plugin-'))
    .map((name) => path.join(packages, name));
}

function markdownFiles(folder) {
  const found = [];
  const walk = (directory) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'test') continue;
      const entryPath = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(entryPath);
      else if (entry.name.endsWith('.md')) found.push(entryPath);
    }
  };
  walk(folder);
  return found;
}

/** Each plugin file's expected text where it differs from what is on disk. */
function outOfDateFiles() {
  const stale = [];
  const block = actionsBlock();
  for (const root of pluginPackages()) {
    for (const file of markdownFiles(root)) {
      const text = readFileSync(file, 'utf8');
      const begin = text.indexOf(BLOCK_BEGIN);
      const end = text.indexOf(BLOCK_END);
      if (begin < 0 || end < begin) continue;
      const expected = `${text.slice(0, begin)}${block}${text.slice(end + BLOCK_END.length)}`;
      if (expected !== text) stale.push({ file, expected });
    }
    const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    for (const relative of RUNTIME_MANIFESTS) {
      const file = path.join(root, relative);
      if (!statSync(file, { throwIfNoEntry: false })) continue;
      const text = readFileSync(file, 'utf8');
      const manifest = JSON.parse(text);
      if (manifest.version !== version) stale.push({ file, expected: `${JSON.stringify({ ...manifest, version }, null, 2)}\n` });
    }
  }
  return stale;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const stale = outOfDateFiles();
  if (process.argv.includes('--json')) {
    // For the parity test, which runs as CommonJS and cannot import this module.
    const plugins = pluginPackages().map((root) => path.relative(repository, root));
    process.stdout.write(
      `${JSON.stringify({ block: actionsBlock(), blockBegin: BLOCK_BEGIN, plugins, outOfDate: stale.map(({ file }) => path.relative(repository, file)) })}\n`,
    );
  } else {
    if (process.argv.includes('--write')) for (const { file, expected } of stale) writeFileSync(file, expected);
    for (const { file } of stale) process.stdout.write(`${process.argv.includes('--write') ? 'rewrote' : 'out of date'}: ${path.relative(repository, file)}\n`);
    if (stale.length > 0 && !process.argv.includes('--write')) {
      process.stdout.write('Run node tools/plugins/plugin-files.mjs --write\n');
      process.exitCode = 1;
    }
  }
}
