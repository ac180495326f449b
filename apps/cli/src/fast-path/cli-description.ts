import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isPlainHelpText } from './wrap-text.js';

export interface HelpTopic {
  name: string;
  description?: string;
  hidden?: boolean;
}

export interface HelpCommand {
  id: string;
  summary?: string;
  description?: string;
  hidden?: boolean;
}

/** What root help and `--version` print, read from package.json and oclif.manifest.json. */
export interface CliDescription {
  name: string;
  version: string;
  bin: string;
  dirname: string;
  description: string;
  /** The arguments that ask for help: `--help` and package.json's `oclif.additionalHelpFlags`. */
  helpFlags: string[];
  /** The topics of package.json's `oclif.topics`, nested ones flattened to `a:b`. */
  topics: HelpTopic[];
  /** The commands of the manifest, in its order. */
  commands: HelpCommand[];
}

// The oclif settings root help is known to print the same under; any other (plugins, a help class,
// a theme, a state, more version flags…) leaves the answer to oclif.
const UNDERSTOOD_OCLIF_SETTINGS = new Set(['bin', 'dirname', 'commands', 'additionalHelpFlags', 'helpClass', 'hooks', 'topicSeparator', 'topics']);
// The help class the CLI ships (src/help/skillopt-help.ts): it prints oclif's help, changing only an unknown subject's error.
const HELP_CLASS_PRINTING_OCLIF_HELP = './dist/help/skillopt-help.js';
// Hooks that run only when they are not answering --help or --version: an `init` or `prerun` hook could print.
const HOOKS_HELP_NEVER_RUNS = new Set(['command_not_found']);

interface PackageJson {
  name?: unknown;
  version?: unknown;
  description?: unknown;
  helpOptions?: unknown;
  oclif?: Record<string, unknown>;
}

interface ManifestCommand {
  id?: unknown;
  summary?: unknown;
  description?: unknown;
  hidden?: unknown;
  aliases?: unknown;
  hiddenAliases?: unknown;
}

/**
 * The CLI as oclif would list it, or undefined when the files are missing, unreadable, out of date
 * (a manifest of another version, which oclif ignores) or use what the fast path does not render.
 */
export function readCliDescription(cliRoot: string): CliDescription | undefined {
  const packageJson = readJson(path.join(cliRoot, 'package.json')) as PackageJson | undefined;
  const manifest = readJson(path.join(cliRoot, 'oclif.manifest.json')) as { version?: unknown; commands?: Record<string, ManifestCommand> } | undefined;
  const settings = packageJson?.oclif;
  if (packageJson === undefined || manifest === undefined || settings === undefined || packageJson.helpOptions !== undefined) return undefined;
  if (!Object.keys(settings).every((key) => UNDERSTOOD_OCLIF_SETTINGS.has(key))) return undefined;
  const { name, version } = packageJson;
  if (typeof name !== 'string' || typeof version !== 'string' || typeof manifest.version !== 'string' || typeof manifest.commands !== 'object')
    return undefined;
  if (manifest.version.split('-')[0] !== version.split('-')[0]) return undefined;
  if (typeof settings.commands !== 'string' || settings.topicSeparator !== ' ') return undefined;
  const helpFlags = helpFlagsOf(settings.additionalHelpFlags);
  if (helpFlags === undefined || !onlyHooksHelpNeverRuns(settings.hooks)) return undefined;
  if (settings.helpClass !== undefined && settings.helpClass !== HELP_CLASS_PRINTING_OCLIF_HELP) return undefined;
  const description = packageJson.description ?? '';
  const bin = settings.bin ?? name;
  const dirname = settings.dirname ?? name;
  if (typeof description !== 'string' || typeof bin !== 'string' || typeof dirname !== 'string') return undefined;
  const topics = topicsOf(settings.topics ?? {}, '');
  const commands = Object.values(manifest.commands).map(commandOf);
  if (topics === undefined || commands.some((command) => command === undefined)) return undefined;
  const texts = [
    description,
    ...topics.map((topic) => topic.description ?? ''),
    ...commands.flatMap((command) => [command!.summary ?? '', command!.description ?? '']),
  ];
  if (!texts.every(isPlainHelpText)) return undefined;
  return {
    name,
    version,
    bin,
    dirname,
    description,
    helpFlags,
    topics,
    commands: commands as HelpCommand[],
  };
}

/** oclif's help flags: `--help` and the additional ones, each a single argument. */
function helpFlagsOf(additional: unknown): string[] | undefined {
  if (additional === undefined) return ['--help'];
  if (!Array.isArray(additional) || !additional.every((flag) => typeof flag === 'string' && flag.startsWith('-'))) return undefined;
  return [...new Set(['--help', ...additional])];
}

function onlyHooksHelpNeverRuns(hooks: unknown): boolean {
  if (hooks === undefined) return true;
  return typeof hooks === 'object' && hooks !== null && Object.keys(hooks).every((event) => HOOKS_HELP_NEVER_RUNS.has(event));
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function topicsOf(input: unknown, base: string): HelpTopic[] | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const topics: HelpTopic[] = [];
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (typeof value !== 'object' || value === null) return undefined;
    const { description, hidden, subtopics } = value as { description?: unknown; hidden?: unknown; subtopics?: unknown };
    if ((description !== undefined && typeof description !== 'string') || (hidden !== undefined && typeof hidden !== 'boolean')) return undefined;
    const name = `${base}${key}`;
    topics.push({ name, ...(description ? { description } : {}), ...(hidden ? { hidden } : {}) });
    if (subtopics === undefined) continue;
    const nested = topicsOf(subtopics, `${name}:`);
    if (nested === undefined) return undefined;
    topics.push(...nested);
  }
  return topics;
}

function commandOf(command: ManifestCommand): HelpCommand | undefined {
  const { id, summary, description, hidden, aliases, hiddenAliases } = command;
  // An alias is listed in root help as a command of its own; rare enough to leave to oclif.
  const hasAliases = (Array.isArray(aliases) && aliases.length > 0) || (Array.isArray(hiddenAliases) && hiddenAliases.length > 0);
  if (typeof id !== 'string' || hasAliases) return undefined;
  if ((summary !== undefined && typeof summary !== 'string') || (description !== undefined && typeof description !== 'string')) return undefined;
  return { id, ...(summary ? { summary } : {}), ...(description ? { description } : {}), ...(hidden ? { hidden: true } : {}) };
}
