import path from 'node:path';
import { FIRST_PARTY_PACKAGES, nearestWord } from '@skillopt/core';
import { SOURCE_IDS, type SourceId } from '../harvest/session-record.js';
import { SLEEP_ACTIONS, type SleepAction, type SleepActionName, type SleepOption } from '../command-line/sleep-actions.js';

/**
 * The MCP tools of SkillOpt-Sleep, made from the same definitions as the `skillopt-sleep` command
 * (SLEEP_ACTIONS): one tool per action, one argument per option, so a tool can take no argument
 * the command does not have and every option the command has is an argument.
 */

/** The agent runtimes the server is started by: their defaults differ (the sessions a night reads). */
export const SLEEP_MCP_RUNTIMES = ['copilot', 'devin'] as const;
export type SleepMcpRuntime = (typeof SLEEP_MCP_RUNTIMES)[number];

/**
 * The sessions each runtime's server reads when a call names no `sources`: the runtime's own
 * (GitHub Copilot's CLI and its VS Code chat; the Devin CLI's transcripts, read natively). A call
 * that names `sources` reads those.
 */
export const RUNTIME_SOURCES: Readonly<Record<SleepMcpRuntime, readonly SourceId[]>> = {
  copilot: ['copilot-cli', 'copilot-vscode'],
  devin: ['devin'],
};

/** The options a tool leaves out: the server always asks for JSON, and a tool's schema is its help. */
const LEFT_OUT_OPTIONS: ReadonlySet<string> = new Set(['help', 'json']);

/** A JSON Schema, as a tool's `inputSchema` holds it. */
type JsonSchema = { [key: string]: unknown };

export interface SleepToolArgument {
  /** The argument's name: the option's, snake_case (`max_sessions`), or its plural for a list (`skills`). */
  name: string;
  /** The option it stands for (`max-sessions`, `skill`). */
  option: string;
  definition: SleepOption;
}

export interface SleepTool {
  /** `sleep_` and the action's name, snake_case: `sleep_dry_run`. */
  name: string;
  action: SleepActionName;
  description: string;
  arguments: readonly SleepToolArgument[];
  /** Groups of arguments of which at most one may be given. */
  exclusive: readonly (readonly string[])[];
  inputSchema: JsonSchema & { type: 'object' };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

function snakeCase(name: string): string {
  return name.replaceAll('-', '_');
}

/** The tool of an action: `dry-run` is `sleep_dry_run`. */
export function sleepToolName(action: SleepActionName): string {
  return `sleep_${snakeCase(action)}`;
}

/** The backends SkillOpt publishes, by the short name a config uses. */
export const PUBLISHED_BACKENDS: readonly string[] = FIRST_PARTY_PACKAGES.backend.filter((backend) => backend.published).map((backend) => backend.id);

/** What each action does to the machine, for the client (MCP's tool annotations): read only, or writing, and what it may reach. */
const ANNOTATIONS: Readonly<Record<SleepActionName, Omit<SleepTool['annotations'], 'title'>>> = {
  harvest: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  mine: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  'dry-run': { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  status: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  adopt: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  schedule: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  unschedule: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
};

const TITLES: Readonly<Record<SleepActionName, string>> = {
  harvest: 'Harvest sessions (preview)',
  mine: 'Mine sessions into a task file',
  'dry-run': 'Dry-run a night',
  run: 'Run a night',
  status: 'Sleep status',
  adopt: 'Adopt a staged proposal',
  schedule: 'Schedule nightly runs',
  unschedule: 'Unschedule nightly runs',
};

/** The schema of one value of an option (an array's item for a repeatable one). */
function valueSchema(definition: SleepOption): JsonSchema {
  if (definition.type === 'boolean') return { type: 'boolean' };
  const value = definition.value;
  if (value === undefined) return { type: 'string', minLength: 1 };
  switch (value.kind) {
    case 'integer':
      return { type: 'integer', minimum: value.minimum, ...(value.maximum === undefined ? {} : { maximum: value.maximum }) };
    case 'fraction':
      return { type: 'number', minimum: 0, exclusiveMaximum: 1 };
    case 'choice':
      return { type: 'string', enum: [...value.choices] };
    case 'source':
      return { type: 'string', enum: [...SOURCE_IDS] };
    case 'backend':
      return { type: 'string', minLength: 1, examples: [...PUBLISHED_BACKENDS] };
  }
}

function argumentDescription(argument: SleepToolArgument, action: SleepAction, runtime: SleepMcpRuntime): string {
  // The command's words for a list (comma-separated or repeated, all by default) are not this server's.
  const parts = [
    argument.option === 'source' ? `the session sources to read (default here: ${RUNTIME_SOURCES[runtime].join(', ')})` : argument.definition.description,
  ];
  if (argument.definition.value?.kind === 'backend')
    parts.push(`one of ${PUBLISHED_BACKENDS.join(', ')}, or a third-party backend's package name or path; its package must be installed`);
  for (const group of action.exclusive ?? [])
    if (group.includes(argument.option)) {
      const others = group.filter((option) => option !== argument.option).map((option) => argumentNameOf(option, action));
      parts.push(`not with ${others.join(' or ')}`);
    }
  return parts.join('; ');
}

function argumentNameOf(option: string, action: SleepAction): string {
  const definition = action.options[option];
  return definition?.plural ?? snakeCase(option);
}

function propertySchema(argument: SleepToolArgument, action: SleepAction, runtime: SleepMcpRuntime): JsonSchema {
  const description = argumentDescription(argument, action, runtime);
  if (argument.definition.multiple) return { type: 'array', items: valueSchema(argument.definition), uniqueItems: true, description };
  return { ...valueSchema(argument.definition), description };
}

function toolDescription(action: SleepAction, runtime: SleepMcpRuntime): string {
  // The summary names the command's flags: here they are arguments (`--undo` is `undo`).
  const summary = action.summary.replace(/--([a-z][a-z-]*)/g, (flag, option: string) =>
    option in action.options ? `\`${argumentNameOf(option, action)}\`` : flag,
  );
  const sentences = [`${summary.charAt(0).toUpperCase()}${summary.slice(1)}.`];
  if ('source' in action.options) sentences.push(`Reads the ${RUNTIME_SOURCES[runtime].join(' and ')} sessions unless \`sources\` names others.`);
  if ('project' in action.options) sentences.push(`The project is the server's working folder unless \`${argumentNameOf('project', action)}\` names another.`);
  if (action.name === 'dry-run' || action.name === 'run' || action.name === 'mine' || action.name === 'harvest')
    sentences.push('Sends progress notifications per stage when the call carries a progress token, and stops when the call is cancelled.');
  return sentences.join(' ');
}

/** The tools of every action, in the command's order, as the server of `runtime` lists them. */
export function sleepTools(runtime: SleepMcpRuntime): SleepTool[] {
  return (SLEEP_ACTIONS as readonly SleepAction[]).map((action) => {
    const toolArguments: SleepToolArgument[] = Object.entries(action.options)
      .filter(([option]) => !LEFT_OUT_OPTIONS.has(option))
      .map(([option, definition]) => ({ name: argumentNameOf(option, action), option, definition }));
    const name = action.name as SleepActionName;
    return {
      name: sleepToolName(name),
      action: name,
      description: toolDescription(action, runtime),
      arguments: toolArguments,
      exclusive: (action.exclusive ?? []).map((group) => group.map((option) => argumentNameOf(option, action))),
      inputSchema: {
        type: 'object',
        properties: Object.fromEntries(toolArguments.map((argument) => [argument.name, propertySchema(argument, action, runtime)])),
        additionalProperties: false,
      },
      annotations: { title: TITLES[name], ...ANNOTATIONS[name] },
    };
  });
}

/** A tool's arguments the server refused before running anything, each problem in a line. */
export class SleepToolArgumentsError extends Error {
  constructor(
    readonly tool: string,
    readonly problems: readonly string[],
  ) {
    super(`Invalid arguments for tool ${tool}: ${problems.join('; ')}`);
    this.name = 'SleepToolArgumentsError';
  }
}

function shown(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

function isPathOrPackageName(text: string): boolean {
  return (
    text.startsWith('@') ||
    text.startsWith('skillopt-backends-') ||
    text.startsWith('file:') ||
    text.startsWith('./') ||
    text.startsWith('../') ||
    text.startsWith('.\\') ||
    text.startsWith('..\\') ||
    path.isAbsolute(text) ||
    /^[a-zA-Z]:[\\/]/.test(text)
  );
}

/** The problem with one value of an argument, or undefined; `name` is how the problem names it (`skills[1]`). */
function valueProblem(name: string, definition: SleepOption, value: unknown): string | undefined {
  if (definition.type === 'boolean') return typeof value === 'boolean' ? undefined : `${name} must be a boolean, got ${shown(value)}`;
  const kind = definition.value?.kind;
  if (kind === 'integer' || kind === 'fraction') {
    if (typeof value !== 'number' || !Number.isFinite(value)) return `${name} must be a number, got ${shown(value)}`;
    if (definition.value?.kind === 'integer') {
      const { minimum, maximum } = definition.value;
      if (!Number.isSafeInteger(value)) return `${name} must be a whole number, got ${value}`;
      if (value < minimum || (maximum !== undefined && value > maximum))
        return `${name} must be ${maximum === undefined ? `at least ${minimum}` : `from ${minimum} to ${maximum}`}, got ${value}`;
      return undefined;
    }
    return value >= 0 && value < 1 ? undefined : `${name} must be from 0 up to (not including) 1, got ${value}`;
  }
  if (typeof value !== 'string') return `${name} must be a string, got ${shown(value)}`;
  if (value.trim() === '') return `${name} must not be empty`;
  if (CONTROL_CHARACTER.test(value)) return `${name} must not hold control characters (a newline, a tab, …)`;
  const choices = kind === 'choice' ? (definition.value as { choices: readonly string[] }).choices : kind === 'source' ? SOURCE_IDS : undefined;
  if (choices !== undefined && !choices.includes(value)) {
    const nearest = nearestWord(value, choices);
    return `${name} is one of ${choices.join(', ')}, got ${JSON.stringify(value)}${nearest === undefined ? '' : `; did you mean "${nearest.word}"?`}`;
  }
  if (kind === 'backend' && !PUBLISHED_BACKENDS.includes(value) && !isPathOrPackageName(value)) {
    const nearest = nearestWord(value, PUBLISHED_BACKENDS);
    if (nearest !== undefined)
      return `${name} ${JSON.stringify(value)} is no backend; did you mean "${nearest.word}"? The published backends are ${PUBLISHED_BACKENDS.join(', ')}`;
  }
  return undefined;
}

/** The text of a value on the command line: numbers as written, strings as they are. */
function flagText(value: unknown): string {
  return typeof value === 'number' ? String(value) : (value as string);
}

/**
 * The command line of a call: the action, each argument given as its option (`--name=value`, so
 * a value that starts with a dash is never read as a flag; a list as the option repeated; a
 * boolean as the bare flag when true), then `sources` the runtime reads by default, then --json.
 * Arguments that are not right are refused all at once, before anything runs.
 */
export function toolCommandLine(tool: SleepTool, given: Readonly<Record<string, unknown>> | undefined, runtime: SleepMcpRuntime): string[] {
  const args = given ?? {};
  const problems: string[] = [];
  const known = new Map(tool.arguments.map((argument) => [argument.name, argument]));
  for (const key of Object.keys(args))
    if (!known.has(key)) {
      const nearest = nearestWord(key, known.keys());
      problems.push(
        `unknown argument "${key}"${nearest === undefined ? '' : `; did you mean "${nearest.word}"?`} (${tool.name} takes ${[...known.keys()].join(', ') || 'no argument'})`,
      );
    }
  const argv: string[] = [tool.action];
  for (const argument of tool.arguments) {
    const value = args[argument.name];
    if (value === undefined) continue;
    if (argument.definition.multiple) {
      if (!Array.isArray(value)) {
        problems.push(`${argument.name} must be an array, got ${shown(value)}`);
        continue;
      }
      const itemProblems = value
        .map((item, index) => valueProblem(`${argument.name}[${index}]`, argument.definition, item))
        .filter((problem) => problem !== undefined);
      problems.push(...itemProblems);
      const seen = new Set<unknown>();
      for (const item of value) {
        if (seen.has(item)) problems.push(`${argument.name} names ${JSON.stringify(item)} twice`);
        seen.add(item);
      }
      if (itemProblems.length === 0) for (const item of value) argv.push(`--${argument.option}=${flagText(item)}`);
      continue;
    }
    const problem = valueProblem(argument.name, argument.definition, value);
    if (problem !== undefined) problems.push(problem);
    else if (argument.definition.type === 'boolean') {
      if (value === true) argv.push(`--${argument.option}`);
    } else argv.push(`--${argument.option}=${flagText(value)}`);
  }
  for (const group of tool.exclusive) {
    const present = group.filter((name) => {
      const value = args[name];
      return value !== undefined && value !== false && !(Array.isArray(value) && value.length === 0);
    });
    if (present.length > 1) problems.push(`give at most one of ${group.join(', ')}, not ${present.join(' and ')}`);
  }
  if (problems.length > 0) throw new SleepToolArgumentsError(tool.name, problems);
  const sources = tool.arguments.find((argument) => argument.option === 'source');
  if (sources !== undefined && (args[sources.name] === undefined || (args[sources.name] as unknown[]).length === 0))
    for (const source of RUNTIME_SOURCES[runtime]) argv.push(`--source=${source}`);
  argv.push('--json');
  return argv;
}
