import type { SpreadsheetTaskItem } from './items.js';

/** The fixed part of the system prompt (our wording); the skill follows under `# Skill`. */
function codegenInstructions(allowPandas: boolean): string {
  return [
    'You solve spreadsheet tasks by writing one self-contained Python script.',
    '',
    'When the script runs, two variables are already defined: INPUT_PATH, the workbook to read, and OUTPUT_PATH, where the finished workbook must be saved. Never assign them yourself.',
    `Import only the Python standard library${allowPandas ? ', openpyxl and pandas' : ' and openpyxl'}. The script runs without network access, without input(), and only its output workbook is kept.`,
    'Reply with exactly one ```python code block holding the whole script.',
  ].join('\n');
}

/** The system message: our instructions, then the skill under a `# Skill` heading. */
export function buildSystemPrompt(skill: string, allowPandas: boolean): string {
  return `${codegenInstructions(allowPandas)}\n\n# Skill\n\n${skill.trim()}\n`;
}

type PromptedItem = Pick<SpreadsheetTaskItem, 'instruction' | 'instructionType' | 'answerPosition' | 'preview'>;

/** The instruction, where the answer goes and the first case's preview: how every mode states a task. */
function taskStatement(item: PromptedItem): string[] {
  return [
    '# Instruction',
    '',
    item.instruction.trim(),
    '',
    ...(item.instructionType === '' ? [] : [`Instruction type: ${item.instructionType}`]),
    `Answer position: ${item.answerPosition}`,
    '',
    '# Input workbook preview',
    '',
    item.preview.trim(),
  ];
}

/** The first user message: the instruction, where the answer goes, the first case's preview, the task. */
export function buildUserPrompt(item: PromptedItem): string {
  return [
    ...taskStatement(item),
    '',
    '# Task',
    '',
    'Write one Python script that opens the workbook at INPUT_PATH, carries out the instruction and saves the whole workbook to OUTPUT_PATH. Keep every cell the instruction does not ask you to change. The preview is one of several test cases with the same layout and other values: compute the answer from the data, and do not hard-code values or row counts.',
    '',
    'Reply with one ```python code block.',
  ].join('\n');
}

/**
 * An agent's `task.md`: the task as the chat prompt states it, then the workbooks it applies to,
 * one line per case (`- \`inputs/1.xlsx\` → \`outputs/1.xlsx\``), and what the agent may use.
 */
export function buildAgentTaskText(item: PromptedItem, cases: ReadonlyArray<{ input: string; output: string }>, allowPandas: boolean): string {
  return [
    ...taskStatement(item),
    '',
    '# Task',
    '',
    `The folder \`inputs/\` holds this task's input workbooks: the same layout with other values. Carry out the instruction on each one and save the whole workbook under \`outputs/\`:`,
    '',
    ...cases.map((entry) => `- \`${entry.input}\` → \`${entry.output}\``),
    '',
    `Keep every cell the instruction does not ask you to change, and compute the answers from each workbook's data rather than typing values in. You may write a Python script in the working directory and run it with \`python3\` (${allowPandas ? 'openpyxl and pandas are' : 'openpyxl is'} installed); the inputs, like the whole working directory, are yours to read.`,
    '',
  ].join('\n');
}

/** The prompt of an agent run: where the task is, that the skill applies, and that nobody answers questions. */
export const AGENT_PROMPT = [
  'Read `task.md` in your working directory: it holds a spreadsheet task and the workbooks it applies to.',
  'Follow the skill document your harness gave you; it was written for tasks like this one.',
  'Save each finished workbook where task.md says, run Python with `python3` if you write a script, and ask no questions, since nobody will answer.',
  'End with one short paragraph saying what you did.',
].join('\n');

/** The feedback turn's closing line. */
const FIX_REQUEST = 'Fix the script and reply with the whole script in one ```python code block.';

/** Feedback when a reply held no code. */
export const NO_CODE_FEEDBACK = `Your reply had no \`\`\`python code block.\n\n${FIX_REQUEST}`;

/** Feedback when the script failed on the first test case. */
export function scriptFailedFeedback(error: string): string {
  return `The script failed:\n\n${error.trim()}\n\n${FIX_REQUEST}`;
}

/** How many wrong cells a feedback turn lists. */
const FEEDBACK_CELLS = 30;

/**
 * Feedback (training only) when the script ran but cells of the first case are wrong: which cells
 * and the values the script wrote — never the expected values.
 */
export function wrongCellsFeedback(wrong: ReadonlyArray<{ cell: string; got: string }>, cellCount: number, missingSheets: readonly string[]): string {
  const lines = [
    missingSheets.length > 0
      ? `The script ran, but the output has no sheet ${missingSheets.map((sheet) => JSON.stringify(sheet)).join(', ')}, where the answer goes; ${wrong.length} of ${cellCount} answer cells of the first test case are wrong:`
      : `The script ran, but ${wrong.length} of ${cellCount} answer cells of the first test case are wrong:`,
    ...wrong.slice(0, FEEDBACK_CELLS).map((entry) => `- ${entry.cell}: your value ${entry.got}`),
    ...(wrong.length > FEEDBACK_CELLS ? [`- ... and ${wrong.length - FEEDBACK_CELLS} more`] : []),
    '',
    FIX_REQUEST,
  ];
  return lines.join('\n');
}
