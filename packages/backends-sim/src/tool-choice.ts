import type { ToolDefinition } from '@skillopt/contract';

type Schema = Record<string, unknown>;

/** The tools an agent's model uses to read a file, found by their JSON schemas (never by their names). */
export interface AgentTools {
  /** A tool that takes a command string (or argv array): a shell. */
  shell?: ShellTool;
  /** A tool whose only required input is a file path: a file reader. */
  reader?: ReaderTool;
  /** A tool that takes a file path and the file's whole new text: a file writer. */
  writer?: WriterTool;
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

interface WriterTool extends ReaderTool {
  contentProperty: string;
}

const COMMAND_PROPERTY = /^(command|cmd|commands|command_line|commandline|script|shell_command)$/i;
const PATH_PROPERTY = /^(file_?path|path|file|file_?name|absolute_?path|target_?file)$/i;
const CONTENT_PROPERTY = /^(content|contents|file_?text|text|data)$/i;
const IMAGE = /image|screenshot|picture/i;
const READS = /read|view|cat|content/i;
const FINAL_RESPONSE = /\b(final|structured)\b[\s\S]*\b(response|answer|output)\b/i;

function propertiesOf(tool: ToolDefinition): Record<string, Schema> {
  const properties = tool.inputSchema.properties;
  return typeof properties === 'object' && properties !== null ? (properties as Record<string, Schema>) : {};
}

function requiredOf(tool: ToolDefinition): string[] {
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

/** The path must be absolute: the description says so, and does not also allow a relative one ("not relative" is no allowance). */
function absolutePathWanted(schema: Schema | undefined): boolean {
  const description = String(schema?.description ?? '');
  return /absolute/i.test(description) && !/(?<!not )relative/i.test(description);
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
  return { tool, pathProperty: name, absolutePath: absolutePathWanted(properties[name]) };
}

/** A writer takes a path and a content string, both required, and nothing else it requires (an editor's old and new text). */
function writerOf(tool: ToolDefinition): WriterTool | undefined {
  const properties = propertiesOf(tool);
  const required = requiredOf(tool);
  const pathProperty = Object.keys(properties).find((property) => PATH_PROPERTY.test(property) && isStringSchema(properties[property]));
  const contentProperty = Object.keys(properties).find((property) => CONTENT_PROPERTY.test(property) && isStringSchema(properties[property]));
  if (pathProperty === undefined || contentProperty === undefined) return undefined;
  if (!required.includes(pathProperty) || !required.includes(contentProperty) || required.length !== 2) return undefined;
  return { tool, pathProperty, contentProperty, absolutePath: absolutePathWanted(properties[pathProperty]) };
}

function isStructuredOutput(tool: ToolDefinition): boolean {
  return /structured.?output/i.test(tool.name) || (FINAL_RESPONSE.test(tool.description) && /\b(format|schema|structured)\b/i.test(tool.description));
}

/**
 * The shell, the file reader and writer and the structured-output tool among a request's tools,
 * chosen by what each tool's JSON schema takes: a required command string (or argv array) is a
 * shell; a file path as the only required input is a reader (an image viewer is not); a path and a
 * content string as the only required inputs are a writer; a tool whose description asks
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
  const writer = candidates.map(writerOf).find((found) => found !== undefined);
  if (writer !== undefined) chosen.writer = writer;
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

/** A path as one shell word: bare when it is plain, else single-quoted. */
export function shellQuoted(path: string): string {
  return /^[\w./~-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/** The path a file tool is given: absolute when its schema asks for that and the working directory is known. */
function pathFor(tool: ReaderTool, file: string, workingDirectory: string | undefined): string {
  return tool.absolutePath && !file.startsWith('/') && workingDirectory !== undefined ? `${workingDirectory.replace(/\/+$/, '')}/${file}` : file;
}

/** A call of the shell tool running `command`, its other required inputs filled. */
function shellCall(shell: ShellTool, command: string, purpose: string): { tool: ToolDefinition; input: Record<string, unknown> } {
  return {
    tool: shell.tool,
    input: withRequiredFilled(shell.tool, { [shell.commandProperty]: shell.commandIsArgv ? ['bash', '-lc', command] : command }, purpose),
  };
}

/** The shell call that runs `command`, or undefined when the request offers no shell. */
export function runCommandCall(tools: AgentTools, command: string, purpose: string): { tool: ToolDefinition; input: Record<string, unknown> } | undefined {
  return tools.shell === undefined ? undefined : shellCall(tools.shell, command, purpose);
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
    return { tool: reader.tool, input: withRequiredFilled(reader.tool, { [reader.pathProperty]: pathFor(reader, file, workingDirectory) }, purpose) };
  }
  return tools.shell === undefined ? undefined : shellCall(tools.shell, `cat ${shellQuoted(file)}`, purpose);
}

/** The heredoc delimiter of a shell write: a line no skill contains. */
export const HEREDOC_END = 'SKILLOPT_SIM_EOF';

/**
 * The tool call that writes `text` to `file` as its whole new content: with the writer when there
 * is one (an absolute path when its schema asks for one), else with the shell (a quoted heredoc,
 * so nothing in the text is expanded).
 */
export function writeFileCall(
  tools: AgentTools,
  file: string,
  text: string,
  workingDirectory: string | undefined,
  preferShell = false,
): { tool: ToolDefinition; input: Record<string, unknown> } | undefined {
  const purpose = `Write ${file}`;
  const writer = tools.writer;
  if (writer !== undefined && !(preferShell && tools.shell !== undefined)) {
    const input = { [writer.pathProperty]: pathFor(writer, file, workingDirectory), [writer.contentProperty]: text };
    return { tool: writer.tool, input: withRequiredFilled(writer.tool, input, purpose) };
  }
  return tools.shell === undefined
    ? undefined
    : shellCall(tools.shell, `cat > ${shellQuoted(file)} <<'${HEREDOC_END}'\n${text.replace(/\n?$/, '\n')}${HEREDOC_END}`, purpose);
}
