import type { Message, ToolCall } from '@skillopt/contract';
import type { SpreadsheetItem } from './spreadsheet-helpers';

/**
 * What SpreadsheetBench's agent mode gives a harness (issue #24): the prompt on stdin, and task.md
 * in a workspace with `inputs/<case>.xlsx` and an empty `outputs/`.
 */

export const SPREADSHEET_AGENT_PROMPT = [
  'Read `task.md` in your working directory: it holds a spreadsheet task and the workbooks it applies to.',
  'Follow the skill document your harness gave you; it was written for tasks like this one.',
  'Save each finished workbook where task.md says, run Python with `python3` if you write a script, and ask no questions, since nobody will answer.',
  'End with one short paragraph saying what you did.',
].join('\n');

/** The case names of an item's inputs: `1`, `2`, … */
export function caseNames(item: SpreadsheetItem): string[] {
  return item.cases.map((_, index) => String(index + 1));
}

/** task.md as the env writes it: the chat prompt's instruction and preview, then the pairs to turn. */
export function taskFile(item: SpreadsheetItem): string {
  return [
    '# Instruction',
    '',
    item.item.question as string,
    '',
    'Instruction type: Cell-Level Manipulation',
    `Answer position: ${item.answerPosition}`,
    '',
    '# Input workbook preview',
    '',
    'A1=Name | B1=First | C1=Second | D1=Total',
    '',
    '# Task',
    '',
    'The folder `inputs/` holds this task\u2019s input workbooks: the same layout with other values. Carry out the instruction on',
    'each one and save the whole workbook under `outputs/`:',
    '',
    ...caseNames(item).map((name) => `- \`inputs/${name}.xlsx\` \u2192 \`outputs/${name}.xlsx\``),
    '',
    'Keep every cell the instruction does not ask you to change, and compute the answers from each workbook\u2019s data rather than',
    'typing values in. You may write a Python script in the working directory and run it with `python3` (openpyxl and pandas',
    'are installed); the inputs, like the whole working directory, are yours to read.',
    '',
  ].join('\n');
}

/** Claude Code's context: its system prompt with the working directory, CLAUDE.md inlined in a system reminder. */
export function claudeCodeMessages(workspace: string, skill: string): Message[] {
  return [
    { role: 'system', content: `You are Claude Code.\n\n# Environment\nPrimary working directory: ${workspace}` },
    {
      role: 'user',
      content: [
        {
          type: 'text',
          text: `<system-reminder>\nAs you answer the user's questions, you can use the following context:\n# claudeMd\nContents of ${workspace}/CLAUDE.md (project instructions, checked into the codebase):\n\n${skill}\n</system-reminder>`,
        },
        { type: 'text', text: SPREADSHEET_AGENT_PROMPT },
      ],
    },
  ];
}

/** Codex's context: AGENTS.md in a developer message, the working directory in its environment context. */
export function codexMessages(workspace: string, skill: string): Message[] {
  return [
    { role: 'system', content: `# AGENTS.md instructions for ${workspace}\n\n<INSTRUCTIONS>\n${skill}\n</INSTRUCTIONS>` },
    { role: 'user', content: `<environment_context>\n  <cwd>${workspace}</cwd>\n  <shell>bash</shell>\n</environment_context>` },
    { role: 'user', content: SPREADSHEET_AGENT_PROMPT },
  ];
}

/** The conversation with one more round: the model's tool call, and the harness's result for it. */
export function withToolRound(messages: readonly Message[], call: ToolCall, output: string, isError = false): Message[] {
  return [
    ...messages,
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: call.input }] },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output, ...(isError ? { isError: true } : {}) }],
    },
  ];
}
