import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ToolDefinition } from '@skillopt/contract';
import { CLI_TRANSCRIPTS } from '../../../testdata/paths';

/**
 * Tool lists shaped as each agent CLI sends them (names as the recorded transcripts and the
 * original's observations record them; schemas in each CLI's own style: property names, required lists,
 * descriptions), and the shell call each CLI's recorded transcript holds.
 */

const string = (description: string) => ({ type: 'string', description });
const integer = (description: string) => ({ type: 'integer', description });
const tool = (name: string, description: string, properties: Record<string, unknown>, required: string[]): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: 'object', properties, required, additionalProperties: false, $schema: 'http://json-schema.org/draft-07/schema#' },
});

export const CLAUDE_CODE_TOOLS: ToolDefinition[] = [
  tool(
    'Agent',
    'Launch a new agent to handle complex, multi-step tasks autonomously.',
    { description: string('A short description of the task'), prompt: string('The task for the agent'), subagent_type: string('The type of agent') },
    ['description', 'prompt'],
  ),
  tool(
    'Bash',
    'Executes a given bash command and returns its output.',
    {
      command: string('The command to execute'),
      timeout: { type: 'number', description: 'Optional timeout in milliseconds (max 600000)' },
      description: string('Clear, concise description of what this command does'),
      run_in_background: { type: 'boolean', description: 'Set to true to run this command in the background.' },
    },
    ['command'],
  ),
  tool('Glob', 'Fast file pattern matching tool.', { pattern: string('The glob pattern'), path: string('The directory to search in') }, ['pattern']),
  tool('Grep', 'A powerful search tool built on ripgrep.', { pattern: string('The regular expression'), path: string('File or directory to search in') }, [
    'pattern',
  ]),
  tool(
    'Read',
    'Reads a file from the local filesystem.',
    {
      file_path: string('The absolute path to the file to read'),
      offset: integer('The line number to start reading from'),
      limit: integer('The number of lines to read'),
    },
    ['file_path'],
  ),
  tool(
    'Edit',
    'Performs exact string replacements in files.',
    {
      file_path: string('The absolute path to the file to modify'),
      old_string: string('The text to replace'),
      new_string: string('The text to replace it with'),
    },
    ['file_path', 'old_string', 'new_string'],
  ),
  tool('Write', 'Writes a file to the local filesystem.', { file_path: string('The absolute path to the file to write'), content: string('The content') }, [
    'file_path',
    'content',
  ]),
  tool(
    'NotebookEdit',
    'Replaces the contents of a specific cell in a Jupyter notebook.',
    { notebook_path: string('The absolute path to the notebook'), new_source: string('The new source') },
    ['notebook_path', 'new_source'],
  ),
  tool('WebFetch', 'Fetches content from a URL.', { url: string('The URL'), prompt: string('What to extract') }, ['url', 'prompt']),
  tool('Skill', 'Execute a skill within the main conversation.', { skill: string('The skill name'), args: string('Optional arguments') }, ['skill']),
  tool('TodoWrite', 'Create and manage a structured task list.', { todos: { type: 'array', items: { type: 'object' } } }, ['todos']),
];

/** The tool Claude Code adds with `--json-schema`: the answer's schema as its input. */
export const CLAUDE_STRUCTURED_OUTPUT_TOOL: ToolDefinition = tool(
  'StructuredOutput',
  'Use this tool to return your final response in the requested structured format. You MUST call this tool exactly once at the end of your response to provide the structured output.',
  { final_response: string('The whole final response'), final_answer: string('The final answer alone') },
  ['final_response', 'final_answer'],
);

export const CODEX_TOOLS: ToolDefinition[] = [
  tool(
    'exec_command',
    'Runs a command in a PTY, returning output or a session ID for ongoing interaction.',
    {
      cmd: string('Shell command to execute.'),
      workdir: string('Optional working directory to run the command in; defaults to the turn cwd.'),
      yield_time_ms: { type: 'number', description: 'How long to wait (in milliseconds) for output before yielding.' },
      max_output_tokens: { type: 'number', description: 'Maximum number of tokens to return.' },
    },
    ['cmd'],
  ),
  tool(
    'write_stdin',
    'Writes characters to an existing unified exec session and returns recent output.',
    { session_id: { type: 'number', description: 'Identifier of the running unified exec session.' }, chars: string('Bytes to write to stdin') },
    ['session_id'],
  ),
  tool('request_user_input', 'Request user input for one to three short questions.', { questions: { type: 'array', items: { type: 'object' } } }, [
    'questions',
  ]),
  tool('view_image', 'View a local image from the filesystem.', { path: string('Local filesystem path to an image file') }, ['path']),
];

export const COPILOT_TOOLS: ToolDefinition[] = [
  tool(
    'bash',
    'Runs a Bash command in an interactive Bash session.',
    {
      command: string('The Bash command and arguments to run.'),
      description: string('A short human-readable description of what the command does.'),
      mode: { type: 'string', enum: ['sync', 'async'], description: 'Execution mode.' },
      initial_wait: { type: 'integer', minimum: 1, description: 'Seconds to wait for output.' },
    },
    ['command', 'description'],
  ),
  tool('read_bash', 'Reads output from a Bash command.', { shellId: string('The ID of the shell session'), delay: integer('Seconds to wait') }, [
    'shellId',
    'delay',
  ]),
  tool('stop_bash', 'Stops a running Bash command.', { shellId: string('The ID of the shell session') }, ['shellId']),
  tool('list_bash', 'Lists all active Bash sessions.', {}, []),
  tool(
    'view',
    'Tool for viewing files and directories.',
    { path: string('Absolute path to file or directory.'), view_range: { type: 'array', items: { type: 'integer' } } },
    ['path'],
  ),
  tool('create', 'Tool for creating new files.', { path: string('Full path to file to create.'), file_text: string('The content of the file') }, [
    'path',
    'file_text',
  ]),
  tool(
    'edit',
    'Tool for making string replacements in files.',
    { path: string('Full path to file to edit.'), old_str: string('The string to replace'), new_str: string('The new string') },
    ['path', 'old_str'],
  ),
  tool('fetch_copilot_cli_documentation', 'Fetches documentation about you, the GitHub Copilot CLI.', {}, []),
  tool('skill', 'Invoke a skill by name.', { skill: string('The skill name') }, ['skill']),
  tool('sql', 'Run a SQL query against the session database.', { query: string('The SQL query'), description: string('What the query does') }, [
    'query',
    'description',
  ]),
  tool('grep', 'Fast and precise code search using ripgrep.', { pattern: string('The pattern'), path: string('File or directory') }, ['pattern']),
  tool('glob', 'Fast file pattern matching.', { pattern: string('The glob pattern'), path: string('The directory') }, ['pattern']),
  tool('task', 'Launch a sub-agent.', { description: string('Short description'), prompt: string('The task'), agent_type: string('The agent type') }, [
    'description',
    'prompt',
    'agent_type',
  ]),
];

export const OPENCODE_TOOLS: ToolDefinition[] = [
  tool(
    'bash',
    'Executes a given bash command in a persistent shell session.',
    {
      command: string('The command to execute'),
      timeout: { type: 'number', description: 'Optional timeout in milliseconds' },
      workdir: string('The working directory to run the command in'),
      description: string('Clear, concise description of what this command does in 5-10 words.'),
    },
    ['command', 'description'],
  ),
  tool('edit', 'Performs exact string replacements in files.', { filePath: string('The absolute path'), oldString: string('old'), newString: string('new') }, [
    'filePath',
    'oldString',
    'newString',
  ]),
  tool('glob', 'Fast file pattern matching tool.', { pattern: string('The glob pattern'), path: string('The directory') }, ['pattern']),
  tool('grep', 'Fast content search tool.', { pattern: string('The regex'), path: string('The directory'), include: string('File pattern') }, ['pattern']),
  tool(
    'read',
    'Read a file or directory from the local filesystem.',
    { filePath: string('The absolute path to the file or directory to read'), offset: { type: 'number' }, limit: { type: 'number' } },
    ['filePath'],
  ),
  tool('skill', 'Load a skill.', { name: string('The skill name') }, ['name']),
  tool('task', 'Launch a new agent.', { description: string('Short description'), prompt: string('The task'), subagent_type: string('The agent') }, [
    'description',
    'prompt',
    'subagent_type',
  ]),
  tool('todowrite', 'Use this tool to create and manage a structured task list.', { todos: { type: 'array', items: { type: 'object' } } }, ['todos']),
  tool('webfetch', 'Fetches content from a URL.', { url: string('The URL'), format: { type: 'string', enum: ['text', 'markdown', 'html'] } }, [
    'url',
    'format',
  ]),
  tool('write', 'Writes a file to the local filesystem.', { content: string('The content'), filePath: string('The absolute path') }, ['content', 'filePath']),
];

export const PI_TOOLS: ToolDefinition[] = [
  tool(
    'read',
    'Read the contents of a file.',
    { path: string('Path to the file to read (relative or absolute)'), offset: { type: 'number' }, limit: { type: 'number' } },
    ['path'],
  ),
  tool('bash', 'Execute a bash command in the current working directory.', { command: string('Bash command to execute'), timeout: { type: 'number' } }, [
    'command',
  ]),
  tool('edit', 'Edit a file by replacing exact text.', { path: string('Path to the file'), oldText: string('old'), newText: string('new') }, [
    'path',
    'oldText',
    'newText',
  ]),
  tool('write', 'Write content to a file.', { path: string('Path to the file'), content: string('Content') }, ['path', 'content']),
];

export interface RecordedShellCall {
  toolName: string;
  input: Record<string, unknown>;
}

const fixture = (name: string): Array<Record<string, unknown>> =>
  readFileSync(path.join(CLI_TRANSCRIPTS, name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** The value at a path of keys and indexes in parsed JSON, or undefined. */
function at(value: unknown, ...keys: Array<string | number>): unknown {
  let current = value;
  for (const key of keys) current = typeof current === 'object' && current !== null ? (current as Record<string | number, unknown>)[key] : undefined;
  return current;
}

const blocksOf = (record: unknown): unknown[] => {
  const content = at(record, 'message', 'content');
  return Array.isArray(content) ? content : [];
};

const call = (toolName: unknown, input: unknown): RecordedShellCall => ({ toolName: String(toolName), input: input as Record<string, unknown> });

/** The shell call each CLI's transcript recorded (the mock model asked for `cat task.md`). */
export function recordedShellCalls(): Record<'claude' | 'codex' | 'copilot' | 'opencode' | 'pi', RecordedShellCall> {
  const claude = fixture('claude/projects/-home-user-project/session-tool-roundtrip.jsonl')
    .flatMap(blocksOf)
    .find((block) => at(block, 'type') === 'tool_use');
  const codex = fixture('codex/sessions/YYYY/MM/DD/rollout-tool-roundtrip.jsonl').find((record) => at(record, 'payload', 'type') === 'function_call');
  const copilot = fixture('copilot/session-state/SESSION_ID/events.jsonl').find(
    (record) => record.type === 'assistant.message' && at(record, 'data', 'toolRequests', 0) !== undefined,
  );
  const opencode = fixture('opencode/opencode-db-session-export.jsonl').find((record) => at(record, 'row', 'data', 'type') === 'tool');
  const pi = fixture('pi/sessions/--home-user-project--/session-tool-roundtrip.jsonl')
    .flatMap(blocksOf)
    .find((block) => at(block, 'type') === 'toolCall');
  return {
    claude: call(at(claude, 'name'), at(claude, 'input')),
    codex: call(at(codex, 'payload', 'name'), JSON.parse(String(at(codex, 'payload', 'arguments')))),
    copilot: call(at(copilot, 'data', 'toolRequests', 0, 'name'), at(copilot, 'data', 'toolRequests', 0, 'arguments')),
    opencode: call(at(opencode, 'row', 'data', 'tool'), at(opencode, 'row', 'data', 'state', 'input')),
    pi: call(at(pi, 'name'), at(pi, 'arguments')),
  };
}

/** The tools as Codex sends them to the Responses API: function tools, not strict. */
export function codexResponsesTools() {
  return CODEX_TOOLS.map((tool) => ({
    type: 'function' as const,
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
    strict: false,
  }));
}
