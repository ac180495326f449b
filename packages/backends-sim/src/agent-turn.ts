import { messageText, type Message, type ToolDefinition } from '@skillopt/contract';
import { filesNamedInPrompt, workingDirectoryOf, workspaceSkillFiles } from './named-files.js';
import { skillInAgentRequest } from './skill-in-request.js';
import { chooseAgentTools, readFileCall, type AgentTools } from './tool-choice.js';
import { toolCallFailure } from './tool-failure.js';
import { fileTextOfToolOutput } from './tool-output-text.js';

/** What the simulated target does next as an agent's model. */
export type AgentStep =
  | { kind: 'read'; file: string; toolName: string; input: Record<string, unknown> }
  | {
      kind: 'answer';
      /** The prompt and the files read: where the item's question is looked up. */
      taskText: string;
      skill: string;
      /** Files were read (the reply says it used the tool results). */
      afterTools: boolean;
      /** The harness's structured-output tool, when the answer is still to be given through it. */
      structuredOutput?: ToolDefinition;
      /** The files read and the calls so far: what a task worked through tools (a spreadsheet's script) goes on from. */
      reading: FileReading;
    };

export interface ToolCallSeen {
  input: string;
  toolName: string;
  output?: string;
  isError: boolean;
}

/** Each file may be tried twice: with the reader, then (after an error) with the shell. */
const ATTEMPTS_PER_FILE = 2;

/** Every tool call of the conversation, with its result once the harness sent one back. */
function toolCallsOf(messages: readonly Message[]): ToolCallSeen[] {
  const calls = new Map<string, ToolCallSeen>();
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') calls.set(part.toolCallId, { input: JSON.stringify(part.input ?? null), toolName: part.toolName, isError: false });
      if (part.type === 'tool-result') {
        const call = calls.get(part.toolCallId);
        if (call !== undefined) Object.assign(call, { output: part.output, isError: part.isError === true });
      }
    }
  }
  return [...calls.values()];
}

/** Where an agent's model stands with the files its prompt names: the next read, or everything read. */
export interface FileReading {
  tools: AgentTools;
  systemTexts: string[];
  userTexts: string[];
  workingDirectory: string | undefined;
  calls: ToolCallSeen[];
  /** The files the prompt names, in order. */
  named: string[];
  /** The next file to read, with the tool call that reads it; absent when every file is read (or given up on). */
  nextRead?: Extract<AgentStep, { kind: 'read' }>;
  /** Each file read, by the name the prompt gave it, as its text. */
  filesRead: Map<string, string>;
}

/**
 * The files the user prompt names and the workspace skill files a skills listing points at, read
 * one tool round trip each with the tools the request offers (chosen by their schemas).
 */
export function readNamedFiles(messages: readonly Message[], tools: readonly ToolDefinition[]): FileReading {
  const agentTools = chooseAgentTools(tools);
  const systemTexts = messages.filter((message) => message.role === 'system').map(messageText);
  const userTexts = messages.filter((message) => message.role === 'user').map(messageText);
  const workingDirectory = workingDirectoryOf([...systemTexts, ...userTexts]);
  const named = [...filesNamedInPrompt(userTexts)];
  for (const file of workspaceSkillFiles([...systemTexts, ...userTexts], workingDirectory)) if (!named.includes(file)) named.push(file);
  const calls = toolCallsOf(messages);
  const reading: FileReading = { tools: agentTools, systemTexts, userTexts, workingDirectory, calls, named, filesRead: new Map() };
  for (const file of named) {
    const attempts = calls.filter((call) => call.input.includes(JSON.stringify(file).slice(1, -1)));
    const read = attempts.find((call) => toolCallFailure(call) === undefined);
    if (read?.output !== undefined) {
      reading.filesRead.set(file, fileTextOfToolOutput(read.output));
      continue;
    }
    if (attempts.length >= ATTEMPTS_PER_FILE) continue;
    const call = readFileCall(agentTools, file, workingDirectory, attempts.length > 0);
    if (call !== undefined) return { ...reading, nextRead: { kind: 'read', file, toolName: call.tool.name, input: call.input } };
  }
  return reading;
}

/**
 * The next step of the simulated target offered tools, or `undefined` when the tools are not an
 * agent's (no shell, no file reader or structured-output tool, or only a reader and no file named:
 * the chat tool loop then stays as it was). An agent's model reads the files its prompt names
 * (readNamedFiles); then it answers from what it read with the skill it found — through the
 * structured-output tool first, when the harness offers one. A request that names no file is
 * answered at once.
 */
export function planAgentStep(
  messages: readonly Message[],
  tools: readonly ToolDefinition[],
  findInSystemPrompt?: (system: string) => string,
): AgentStep | undefined {
  const reading = readNamedFiles(messages, tools);
  const { tools: agentTools, systemTexts, userTexts, filesRead, calls } = reading;
  if (agentTools.shell === undefined && agentTools.structuredOutput === undefined && (agentTools.reader === undefined || reading.named.length === 0))
    return undefined;
  if (reading.nextRead !== undefined) return reading.nextRead;

  const systemText = systemTexts.join('\n\n');
  const skill = skillInAgentRequest(systemText, userTexts, filesRead, findInSystemPrompt);
  const taskText = [...userTexts, ...filesRead.values()].join('\n');
  const structuredOutput = agentTools.structuredOutput;
  const structuredGiven = structuredOutput !== undefined && calls.some((call) => call.toolName === structuredOutput.name);
  return {
    kind: 'answer',
    taskText,
    skill,
    afterTools: filesRead.size > 0,
    reading,
    ...(structuredOutput !== undefined && !structuredGiven ? { structuredOutput } : {}),
  };
}
