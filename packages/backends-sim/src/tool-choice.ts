import type { ToolDefinition } from '@skillopt/contract';

type Schema = Record<string, unknown>;

/** The tools an agent's model uses to read a file, found by their JSON schemas (never by their names). */
export interface AgentTools {
  /** A tool that takes a command string (or argv array): a shell. */
  shell?: ShellTool;
  /** A tool whose only required input is a file path: a file reader. */
  reader?: ReaderTool;
  /** A tool the harness asks the final answer to be given through, with the answer's schema as its input. */
  structuredOutput?: ToolDefinition;
}

interface ShellTool {
  tool: ToolDefinition;
  commandProperty: string;
  commandIsArgv: boolean;
}

interface ReaderTool {
  tool: ToolDefinition;
  pathProperty: string;
  /** Its path must be absolute (the schema says so). */
  absolutePath: boolean;
}

const COMMAND_PROPERTY = /^(command|cmd|commands|command_line|commandline|script|shell_command)$/i;
const PATH_PROPERTY = /^(file_?path|path|file|file_?name|absolute_?path|target_?file)$/i;
const IMAGE = /image|screenshot|picture/i;
const READS = /read|view|cat|content/i;
const FINAL_RESPONSE = /\b(final|structured)\b[\s\S]*\b(response|answer|output)\b/i;

function propertiesOf(tool: ToolDefinition): Record<string, Schema> {
  const properties = tool.inputSchema.properties;
  return typeof properties === 'object' && properties !== null ? (properties as Record<string, Schema>) : {};
}

export function requiredOf(tool: ToolDefinition): string[] {
  const required = tool.inputSchema.required;
  return Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : [];
}

function isStringSchema(schema: Schema | undefined): boolean {
  return schema?.type === 'string' || (Array.isArray(schema?.type) && (schema.type as unknown[]).includes('string'));
}

function isArgvSchema(schema: Schema | undefined): boolean {
  return schema?.type === 'array' && isStringSchema(schema.items as Schema | undefined);
}

function shellOf(tool: ToolDefinition): ShellTool | undefined {
  const properties = propertiesOf(tool);
  const required = requiredOf(tool);
  const name = Object.keys(properties).find(
    (property) => COMMAND_PROPERTY.test(property) && (isStringSchema(properties[property]) || isArgvSchema(properties[property])),
  );
  if (name === undefined || (required.length > 0 && !required.includes(name))) return undefined;
  return { tool, commandProperty: name, commandIsArgv: isArgvSchema(properties[name]) };
}

function readerOf(tool: ToolDefinition): ReaderTool | undefined {
  const properties = propertiesOf(tool);
  const required = requiredOf(tool);
  const name = Object.keys(properties).find((property) => PATH_PROPERTY.test(property) && isStringSchema(properties[property]));
  if (name === undefined) return undefined;
  // Another required input (content, old and new text, a pattern) makes it a writer, an editor or a search.
  if (required.some((property) => property !== name)) return undefined;
  const description = String(properties[name]?.description ?? '');
  if (IMAGE.test(tool.name) || IMAGE.test(description)) return undefined;
  return { tool, pathProperty: name, absolutePath: /absolute/i.test(description) && !/relative/i.test(description) };
}

function isStructuredOutput(tool: ToolDefinition): boolean {
  return /structured.?output/i.test(tool.name) || (FINAL_RESPONSE.test(tool.description) && /\b(format|schema|structured)\b/i.test(tool.description));
}

/**
 * The shell, the file reader and the structured-output tool among a request's tools, chosen by what
 * each tool's JSON schema takes: a required command string (or argv array) is a shell; a file path
 * as the only required input is a reader (an image viewer is not); a tool whose description asks
 * for the final response in a structured format is where the answer goes. Among several readers,
 * one that says it reads or views comes first; otherwise the request's order decides.
 */
export function chooseAgentTools(tools: readonly ToolDefinition[]): AgentTools {
  const chosen: AgentTools = {};
  const structured = tools.find(isStructuredOutput);
  if (structured !== undefined) chosen.structuredOutput = structured;
  const candidates = tools.filter((tool) => tool !== structured);
  const shell = candidates.map(shellOf).find((found) => found !== undefined);
  if (shell !== undefined) chosen.shell = shell;
  const readers = candidates.flatMap((tool) => (shellOf(tool) === undefined ? (readerOf(tool) ?? []) : []));
  const reader = readers.find((found) => READS.test(found.tool.name) || READS.test(found.tool.description)) ?? readers[0];
  if (reader !== undefined) chosen.reader = reader;
  return chosen;
}

/** A value for a required input the simulator has no use for, from its schema: its default, an enum's first, else a plain value of its type. */
function fillerFor(schema: Schema | undefined, purpose: string): unknown {
  if (schema === undefined) return purpose;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (schema.type) {
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' && schema.minimum > 0 ? schema.minimum : 30;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return purpose;
  }
}

function withRequiredFilled(tool: ToolDefinition, input: Record<string, unknown>, purpose: string): Record<string, unknown> {
  const properties = propertiesOf(tool);
  for (const name of requiredOf(tool)) if (!(name in input)) input[name] = fillerFor(properties[name], purpose);
  return input;
}

function shellQuoted(path: string): string {
  return /^[\w./~-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/**
 * The tool call that reads `file`: with the reader when there is one (an absolute path when its
 * schema asks for one and the working directory is known), else with the shell (`cat <file>`).
 * Required inputs beyond the path or command get their schema's default or a plain value.
 */
export function readFileCall(
  tools: AgentTools,
  file: string,
  workingDirectory: string | undefined,
  preferShell = false,
): { tool: ToolDefinition; input: Record<string, unknown> } | undefined {
  const purpose = `Read ${file}`;
  const reader = tools.reader;
  const readerUsable = reader !== undefined && (!reader.absolutePath || file.startsWith('/') || workingDirectory !== undefined || tools.shell === undefined);
  if (reader !== undefined && readerUsable && !(preferShell && tools.shell !== undefined)) {
    const path = reader.absolutePath && !file.startsWith('/') && workingDirectory !== undefined ? `${workingDirectory.replace(/\/+$/, '')}/${file}` : file;
    return { tool: reader.tool, input: withRequiredFilled(reader.tool, { [reader.pathProperty]: path }, purpose) };
  }
  const shell = tools.shell;
  if (shell === undefined) return undefined;
  const command = `cat ${shellQuoted(file)}`;
  return {
    tool: shell.tool,
    input: withRequiredFilled(shell.tool, { [shell.commandProperty]: shell.commandIsArgv ? ['bash', '-lc', command] : command }, purpose),
  };
}
