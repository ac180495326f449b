// The examples the docs teach, as documents of commands: the fenced shell blocks of the package
// READMEs, the root README and docs/**/*.md, and each command's --help examples (oclif manifest).
// A block directly after the line `<!-- examples: repository-checkout -->` holds commands for a
// checkout of this repository (pnpm, tools/…, configs/…); it is listed, never run.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell', 'console']);
export const REPOSITORY_CHECKOUT_MARKER = '<!-- examples: repository-checkout -->';
const MANIFEST_PATH = 'apps/cli/oclif.manifest.json';
const toolDirectory = path.dirname(fileURLToPath(import.meta.url));

function markdownFilesUnder(root, relativeDirectory) {
  const directory = path.join(root, relativeDirectory);
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true })
    .sort((left, right) => left.name.localeCompare(right.name))
    .flatMap((entry) => {
      const relative = path.posix.join(relativeDirectory, entry.name);
      if (entry.isDirectory()) return markdownFilesUnder(root, relative);
      return entry.name.endsWith('.md') ? [relative] : [];
    });
}

function readmesOf(root, group) {
  const directory = path.join(root, group);
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(directory, entry.name, 'README.md')))
    .map((entry) => `${group}/${entry.name}/README.md`)
    .sort();
}

/** The markdown documents whose shell blocks are examples, relative to the repository root. */
export function exampleDocuments(root) {
  return ['README.md', ...readmesOf(root, 'packages'), ...readmesOf(root, 'apps'), ...markdownFilesUnder(root, 'docs')].filter((file) =>
    existsSync(path.join(root, file)),
  );
}

/**
 * The commands of one shell block: one per logical line (a line ending in `\` continues on the
 * next). Blank lines and comment-only lines are dropped. In a `console` block only `$ ` lines
 * (and their continuations) are commands; the rest is output.
 */
export function blockCommands(lines, language) {
  const commands = [];
  let pending;
  for (const rawLine of lines) {
    let line = rawLine;
    if (pending === undefined && language === 'console') {
      if (!line.startsWith('$ ')) continue;
      line = line.slice(2);
    }
    const joined = pending === undefined ? line : `${pending}\n${line}`;
    if (/\\$/.test(line)) {
      pending = joined;
      continue;
    }
    pending = undefined;
    const trimmed = joined.trim();
    if (trimmed !== '' && !trimmed.startsWith('#')) commands.push(trimmed);
  }
  if (pending !== undefined && pending.trim() !== '') commands.push(pending.trim());
  return commands;
}

/** The fenced shell blocks of a markdown text: their first line (1-based), language, commands, and whether they are marked as repository commands. */
export function shellBlocks(text) {
  const lines = text.split('\n');
  const blocks = [];
  for (let index = 0; index < lines.length; index += 1) {
    const opening = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/.exec(lines[index]);
    if (!opening) continue;
    const [, indent, fence, language] = opening;
    const body = [];
    let closing = index + 1;
    while (closing < lines.length && !new RegExp(`^\\s*${fence[0]}{${fence.length},}\\s*$`).test(lines[closing])) {
      body.push(lines[closing].startsWith(indent) ? lines[closing].slice(indent.length) : lines[closing]);
      closing += 1;
    }
    if (SHELL_LANGUAGES.has(language.toLowerCase())) {
      let previous = index - 1;
      while (previous >= 0 && lines[previous].trim() === '') previous -= 1;
      blocks.push({
        line: index + 1,
        language: language.toLowerCase(),
        commands: blockCommands(body, language.toLowerCase()),
        repositoryCheckout: previous >= 0 && lines[previous].trim() === REPOSITORY_CHECKOUT_MARKER,
      });
    }
    index = closing;
  }
  return blocks;
}

/**
 * The CLI's command examples, one document per command, named as a reader finds them
 * (`skillopt train --help`); `<%= config.bin %>` is `skillopt`. A command's setup commands
 * (command-setup.json: what its examples assume) come first, as an example of their own.
 */
export function manifestDocuments(manifest, setup) {
  return Object.entries(manifest.commands ?? {}).map(([id, command]) => {
    const document = `skillopt ${id.replaceAll(':', ' ')} --help`;
    const examples = (command.examples ?? []).map((example, index) => ({
      location: `${document}, example ${index + 1}`,
      commands: [(typeof example === 'string' ? example : example.command).replaceAll('<%= config.bin %>', 'skillopt').trim()],
      repositoryCheckout: false,
    }));
    const given = setup[id] ?? [];
    if (given.length > 0)
      examples.unshift({ location: `${document}, its setup (tools/examples/command-setup.json)`, commands: given, repositoryCheckout: false });
    return { document, examples };
  });
}

/** Every document with its examples: `{ document, examples: [{ location, commands, repositoryCheckout }] }`. */
export function collectDocuments(root) {
  const documents = exampleDocuments(root).map((document) => ({
    document,
    examples: shellBlocks(readFileSync(path.join(root, document), 'utf8')).map((block) => ({
      location: `${document}:${block.line}`,
      commands: block.commands,
      repositoryCheckout: block.repositoryCheckout,
    })),
  }));
  const manifestPath = path.join(root, MANIFEST_PATH);
  if (!existsSync(manifestPath)) throw new Error(`${MANIFEST_PATH} is missing: build the CLI first (pnpm nx run @skillopt/cli:build)`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const { setup } = JSON.parse(readFileSync(path.join(toolDirectory, 'command-setup.json'), 'utf8'));
  const unknown = Object.keys(setup).filter((id) => !manifest.commands?.[id]);
  if (unknown.length > 0) throw new Error(`command-setup.json names commands the CLI does not have: ${unknown.join(', ')}`);
  documents.push(...manifestDocuments(manifest, setup));
  return documents.filter((document) => document.examples.length > 0);
}
