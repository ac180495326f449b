import type { CliDescription, HelpCommand, HelpTopic } from './cli-description.js';
import type { HeaderStyle } from './terminal.js';
import { wrapText } from './wrap-text.js';

export interface RootHelpLayout {
  width: number;
  headerStyle: HeaderStyle;
}

/**
 * `skillopt --help` as oclif 4's Help.showRootHelp prints it (every console.log it makes, joined):
 * the description's first line, VERSION, USAGE, DESCRIPTION (the description's further lines), then
 * TOPICS and COMMANDS of the root level, each wrapped to the layout's width.
 */
export function formatRootHelp(cli: CliDescription, userAgent: string, layout: RootHelpLayout): string {
  const section = (header: string, body: string) => `${layout.headerStyle === 'bold' ? `\u001b[1m${header}\u001b[22m` : header}\n${indent(body, 2)}`;
  const wrap = (text: string, spacing: number) => wrapText(text, layout.width - spacing);
  const [summary = '', ...furtherLines] = cli.description.split('\n');
  const furtherDescription = furtherLines.join('\n');
  const head = [
    summary,
    section('VERSION', wrap(userAgent, 2)),
    section('USAGE', wrap(`$ ${cli.bin} [COMMAND]`, 2)),
    furtherDescription ? section('DESCRIPTION', wrap(furtherDescription, 2)) : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  let output = `${head}\n\n`;
  const topics = rootTopicsOf(cli);
  if (topics.length > 0)
    output += `${section(
      'TOPICS',
      renderList(
        topics.map((topic) => [topic.name, firstLine(topic.description)]),
        layout.width,
      ),
    )}\n\n`;
  const commands = rootCommandsOf(cli);
  if (commands.length > 0)
    output += `${section(
      'COMMANDS',
      renderList(
        commands.map((command) => [command.id, summaryOf(command)]),
        layout.width,
      ),
    )}\n\n`;
  return output;
}

/** Topics with a subtopic or command under them, the way oclif's Config and Help select them. */
function rootTopicsOf(cli: CliDescription): HelpTopic[] {
  const declared = new Map<string, HelpTopic>();
  for (const topic of cli.topics) {
    const existing = declared.get(topic.name);
    const description = topic.description ?? existing?.description;
    declared.set(topic.name, { name: topic.name, ...(description ? { description } : {}), ...(existing?.hidden || topic.hidden ? { hidden: true } : {}) });
  }
  // oclif adds a topic for every prefix of a listed command's id that no declared topic names.
  const listedCommands = cli.commands.filter((command) => !command.hidden);
  const names = new Set(declared.keys());
  for (const command of listedCommands) {
    const parts = command.id.split(':');
    for (; parts.length > 0; parts.pop()) names.add(parts.join(':'));
  }
  const all = [...names].filter(Boolean);
  return all
    .filter((name) => !name.includes(':') && all.some((other) => other.includes(`${name}:`)))
    .map((name) => declared.get(name) ?? addedTopic(name, listedCommands))
    .filter((topic) => !topic.hidden)
    .sort((left, right) => compare(left.name, right.name));
}

/**
 * A topic oclif added: described by the first command under it in oclif's order of commands (by id,
 * localeCompare). Sorted only when there is a choice: a process's first localeCompare costs about
 * 15 ms (ICU's collator), a tenth of what the fast path saves.
 */
function addedTopic(name: string, commands: HelpCommand[]): HelpTopic {
  const under = commands.filter((command) => command.id === name || command.id.startsWith(`${name}:`));
  const [first] = under.length > 1 ? [...under].sort((left, right) => left.id.localeCompare(right.id)) : under;
  const description = first?.summary ?? first?.description;
  return { name, ...(description ? { description } : {}) };
}

function rootCommandsOf(cli: CliDescription): HelpCommand[] {
  return cli.commands.filter((command) => !command.hidden && command.id && !command.id.includes(':')).sort((left, right) => compare(left.id, right.id));
}

function summaryOf(command: HelpCommand): string | undefined {
  return firstLine(command.summary ?? command.description);
}

function firstLine(text: string | undefined): string | undefined {
  return text?.split('\n')[0];
}

/** oclif's HelpFormatter.renderList: names in a column, each description wrapped beside its name. */
function renderList(rows: [string, string | undefined][], width: number): string {
  const indentation = 2;
  const nameWidth = Math.max(...rows.map(([name]) => name.length));
  let output = '';
  let current = '';
  for (const [name, description] of rows) {
    if (current) output += `\n${current}`;
    current = name;
    if (!description) {
      current = current.trim();
      continue;
    }
    const [first, ...further] = wrapText(description.trim(), width - (indentation + nameWidth + 2))
      .split('\n')
      .map((line) => line.trim());
    current += `${' '.repeat(nameWidth - current.length + 2)}${first}`;
    if (further.length === 0) continue;
    if (further.length > 4) return renderMultiline(rows, width);
    current += `\n${indent(further.join('\n'), nameWidth + 2)}`;
  }
  if (current) output += `\n${current}`;
  return output.trim();
}

/** renderList's layout when a description would take more than five lines beside its name. */
function renderMultiline(rows: [string, string | undefined][], width: number): string {
  let output = '';
  for (const [name, description] of rows) {
    output += wrapText(name.trim(), width - 2);
    if (description) output += `\n${indent(wrapText(description.trim(), width - 4), 4)}`;
    output += '\n\n';
  }
  return output.trim();
}

/** indent-string 4: every line that is not blank. */
function indent(text: string, spaces: number): string {
  return text.replace(/^(?!\s*$)/gm, ' '.repeat(spaces));
}

function compare(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
