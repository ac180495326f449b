import type { Message, ToolDefinition } from '@skillopt/contract';
import { messageText } from '@skillopt/contract';
import { readNamedFiles, type ToolCallSeen } from './agent-turn.js';
import { answerOptimizerPrompt, type OptimizerSettings } from './optimizer.js';
import { HEREDOC_END, writeFileCall, type AgentTools } from './tool-choice.js';

/**
 * The simulated optimizer as an agent's model: the harness (Claude Code, Codex, …) runs it on the
 * optimizer's agent prompt, with `skill.md` and the step's trajectories as files in its workspace.
 * It reads the files with the harness's tools, diagnoses the failed trajectories as its reflection
 * does (harmful and useless rules at their configured rates included, so the gate has real work),
 * writes its edited copy back through the harness's writer or shell, and ends with the one-line-per-
 * change summary the prompt asks for.
 */

/** The sentence of the optimizer's agent prompt that names the file to edit. */
const AGENT_OPTIMIZER_SIGNATURE = /The document is the file `skill\.md` in your working directory/;
const SKILL_FILE = 'skill.md';
const FAILED_FILE = 'trajectories/failed.md';
const REJECTED_FILE = 'rejected-edits.md';
/** A write is tried twice: with the writer, then (after an error) with the shell. */
const WRITE_ATTEMPTS = 2;
const DEFAULT_MAXIMUM_CHANGES = 3;

export type AgentOptimizerStep =
  | { kind: 'tool'; action: 'read' | 'write'; file: string; toolName: string; input: Record<string, unknown> }
  | { kind: 'answer'; text: string };

interface SimulatedEdit {
  op: 'append' | 'insert_after' | 'replace' | 'delete';
  target?: string;
  content?: string;
  rationale: string;
}

/** Whether a request is the optimizer's agent prompt. */
function isAgentOptimizerRequest(messages: readonly Message[]): boolean {
  return messages.some((message) => message.role === 'user' && AGENT_OPTIMIZER_SIGNATURE.test(messageText(message)));
}

/** The next step of the simulated agent optimizer, or `undefined` when the request is not its prompt. */
export function planAgentOptimizerStep(
  settings: OptimizerSettings,
  messages: readonly Message[],
  tools: readonly ToolDefinition[],
): AgentOptimizerStep | undefined {
  if (!isAgentOptimizerRequest(messages)) return undefined;
  const reading = readNamedFiles(messages, tools);
  const next = reading.nextRead;
  if (next !== undefined) return { kind: 'tool', action: 'read', file: next.file, toolName: next.toolName, input: next.input };
  const skill = reading.filesRead.get(SKILL_FILE);
  if (skill === undefined) return { kind: 'answer', text: `${label(settings)}: I could not read ${SKILL_FILE}, so I changed nothing.` };
  const prompt = reading.userTexts.find((text) => AGENT_OPTIMIZER_SIGNATURE.test(text)) ?? '';
  const maximum = Number(/at most (\d+) separate changes/.exec(prompt)?.[1] ?? DEFAULT_MAXIMUM_CHANGES);
  const { reasoning, edits } = diagnose(settings, skill, reading.filesRead.get(FAILED_FILE) ?? '', reading.filesRead.get(REJECTED_FILE) ?? '', maximum);
  if (edits.length === 0) return { kind: 'answer', text: `${label(settings)}: ${reasoning} No change would help, so ${SKILL_FILE} is as it was.` };

  const writes = writeCallsOf(reading.calls, reading.tools);
  const written = writes.find((call) => call.output !== undefined && !call.isError);
  if (written !== undefined) return { kind: 'answer', text: summaryOf(settings, reasoning, edits) };
  if (writes.length >= WRITE_ATTEMPTS)
    return { kind: 'answer', text: `${label(settings)}: I could not write ${SKILL_FILE} (${(writes.at(-1)?.output ?? 'no result').slice(0, 200)}).` };
  const call = writeFileCall(reading.tools, SKILL_FILE, withEdits(skill, edits), reading.workingDirectory, writes.length > 0);
  if (call === undefined) return { kind: 'answer', text: `${label(settings)}: this harness gave me no tool that writes files, so ${SKILL_FILE} is unchanged.` };
  return { kind: 'tool', action: 'write', file: SKILL_FILE, toolName: call.tool.name, input: call.input };
}

function label(settings: OptimizerSettings): string {
  return `${settings.modelId} (a simulated model)`;
}

function writeCallsOf(calls: readonly ToolCallSeen[], tools: AgentTools): ToolCallSeen[] {
  const writer = tools.writer?.tool.name;
  return calls.filter((call) => call.input.includes(HEREDOC_END) || (call.toolName === writer && call.input.includes(SKILL_FILE)));
}

/**
 * The edits the simulated reflection proposes for these files: the failed trajectories read as a
 * reflection prompt shows them, so the diagnosis (and which rule turns out harmful) is the chat
 * optimizer's own. Never malformed: the agent writes a file, not a JSON reply.
 */
function diagnose(
  settings: OptimizerSettings,
  skill: string,
  failed: string,
  rejected: string,
  maximum: number,
): { reasoning: string; edits: SimulatedEdit[] } {
  const count = (failed.match(/^### Trajectory /gm) ?? []).length;
  const prompt = [
    `Propose at most ${maximum} edits that would prevent the failures below, read from the trajectories in which the agent FAILED.`,
    '',
    ...(rejected.trim() === '' ? [] : ['## Edits already tried and rejected', '', rejected.trim(), '']),
    '## Current skill',
    '',
    skill,
    '',
    `## Failed trajectories (${count})`,
    '',
    failed.trim() === '' ? '(none)' : failed.trim(),
    '',
    '## Your reply',
  ].join('\n');
  const reply = answerOptimizerPrompt({ ...settings, malformedReplyRate: 0 }, [prompt]);
  const parsed = JSON.parse(reply.text) as { reasoning?: string; edits?: SimulatedEdit[] };
  return { reasoning: parsed.reasoning ?? '', edits: (parsed.edits ?? []).slice(0, maximum) };
}

const PROTECTED_START = /^\s*<!--\s*\w+_START\s*-->\s*$/m;

const LIST_ITEM_OR_HEADING = /^\s*(?:[-*+]|\d+[.)]|#{1,6})\s/;

/**
 * The skill with the edits made, as an agent makes them in its editor: whole lines, each new rule
 * a bullet of its own, new rules at the end of the body.
 */
function withEdits(skill: string, edits: readonly SimulatedEdit[]): string {
  let text = skill.replace(/\s+$/, '');
  for (const edit of edits) {
    const written = edit.content?.trim() ?? '';
    const content = written === '' || LIST_ITEM_OR_HEADING.test(written) ? written : `- ${written}`;
    if (edit.op === 'append') {
      const protectedAt = PROTECTED_START.exec(text)?.index;
      text = protectedAt === undefined ? `${text}\n${content}` : `${text.slice(0, protectedAt).replace(/\s+$/, '')}\n${content}\n\n${text.slice(protectedAt)}`;
      continue;
    }
    const at = edit.target === undefined ? -1 : text.indexOf(edit.target);
    if (at < 0 || edit.target === undefined) continue;
    const end = at + edit.target.length;
    if (edit.op === 'replace') text = `${text.slice(0, at)}${content}${text.slice(end)}`;
    else if (edit.op === 'delete') text = `${text.slice(0, at)}${text.slice(end).replace(/^\n/, '')}`;
    else {
      const lineEnd = text.indexOf('\n', end);
      text = lineEnd < 0 ? `${text}\n${content}` : `${text.slice(0, lineEnd + 1)}${content}\n${text.slice(lineEnd + 1)}`;
    }
  }
  return `${text}\n`;
}

function firstWords(text: string): string {
  return text
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
    .split(/\s+/)
    .slice(0, 6)
    .join(' ')
    .replace(/`/g, "'");
}

/** The closing message the prompt asks for: one line per change, its first words in backticks, then why. */
function summaryOf(settings: OptimizerSettings, reasoning: string, edits: readonly SimulatedEdit[]): string {
  const lines = edits.map((edit) => `- \`${firstWords(edit.op === 'delete' ? (edit.target ?? '') : (edit.content ?? ''))}\`: ${edit.rationale}`);
  return [`${label(settings)}: I edited ${SKILL_FILE}. ${reasoning}`, '', ...lines].join('\n');
}
