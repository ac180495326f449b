import type { OptimizerPrompt } from '@skillopt/contract';
import { diagnoseAlfworldTrajectory, isAlfworldTrajectory } from './alfworld-diagnosis.js';
import { containsNumericDate, parseWrittenDate } from './dates.js';
import type { HarmKind } from './failure-classes.js';
import { diagnoseSleepTrajectory, isSleepTrajectory } from './sleep-diagnosis.js';
import { diagnoseSpreadsheetTrajectory, isSpreadsheetTrajectory } from './spreadsheet-diagnosis.js';
import { numbersInWords, parseNumeral } from './numbers.js';
import { hasAnswerTagAttempt, hasWellFormedAnswerTag, normalizeAnswer, plainWords } from './text.js';

/**
 * Reading the optimizer's prompts as text, the way a model would: which prompt template (and so
 * which stage, in the contract's vocabulary) a prompt is, its sections, the trajectories and
 * numbered edits in it. Over HTTP the simulator sees only the messages, so recognition is by text;
 * a test renders every real template of the optimizer and checks each is recognised, so a reworded
 * template fails a test instead of silently confusing the simulator.
 */

// One signature per template: a record over the contract's prompt names, so a new template
// cannot be added without saying how the simulator recognises it.
const PROMPT_SIGNATURES: Readonly<Record<OptimizerPrompt, RegExp>> = {
  'reflect-failure': /trajectories in which the agent FAILED/,
  'reflect-success': /trajectories in which the agent SUCCEEDED/,
  merge: /consolidate proposed edits to a skill document/i,
  rank: /choose which proposed edits to a skill document/i,
  'lr-decide': /decide how many of the proposed edits/i,
  'rewrite-from-suggestions': /apply the selected suggestions below/i,
  'full-rewrite': /write the improved skill in full/i,
  'slow-update': /write the slow-update guidance/i,
  'meta-skill': /keep the optimizer's strategy notes/i,
  'appendix-consolidate': /tidy the execution-notes appendix/i,
};

/** Second tier: the reply shape a prompt asks for, in case the wording of a template changed. */
const SHAPE_SIGNATURES: ReadonlyArray<[OptimizerPrompt, RegExp]> = [
  ['merge', /"mergedFrom"/],
  ['rank', /"selected"\s*:/],
  ['lr-decide', /"learningRate"\s*:/],
  ['slow-update', /"guidance"\s*:/],
  ['meta-skill', /"metaSkill"\s*:/],
  ['appendix-consolidate', /"notes"\s*:\s*\[/],
  ['full-rewrite', /"newSkill"[\s\S]*## Trajectories \(/],
  ['rewrite-from-suggestions', /"newSkill"/],
  ['reflect-failure', /## Failed trajectories \(/],
  ['reflect-success', /## Successful trajectories \(/],
];

/** Which of the optimizer's prompt templates `prompt` was rendered from, if any. */
export function detectPrompt(prompt: string): OptimizerPrompt | undefined {
  for (const [template, signature] of Object.entries(PROMPT_SIGNATURES) as Array<[OptimizerPrompt, RegExp]>) if (signature.test(prompt)) return template;
  for (const [template, signature] of SHAPE_SIGNATURES) if (signature.test(prompt)) return template;
  return undefined;
}

/** The text between a heading line that starts with `heading` and the first later line that starts with `until`. */
export function sectionBetween(prompt: string, heading: string, until: readonly string[]): string | undefined {
  const start = prompt.indexOf(`\n${heading}`) >= 0 ? prompt.indexOf(`\n${heading}`) + 1 : prompt.startsWith(heading) ? 0 : -1;
  if (start < 0) return undefined;
  const bodyStart = prompt.indexOf('\n', start);
  if (bodyStart < 0) return '';
  let end = prompt.length;
  for (const marker of until) {
    const position = marker === '## Your reply' ? prompt.lastIndexOf(`\n${marker}`) : prompt.indexOf(`\n${marker}`, bodyStart);
    if (position >= bodyStart && position < end) end = position;
  }
  return prompt
    .slice(bodyStart + 1, end)
    .replace(/^\n+/, '')
    .replace(/\s+$/, '');
}

const NEXT_AFTER_SKILL: Readonly<Partial<Record<OptimizerPrompt, string>>> = {
  'reflect-failure': '## Failed trajectories (',
  'reflect-success': '## Successful trajectories (',
  merge: '## Proposed edits (',
  rank: '## Proposed edits',
  'lr-decide': '## Evidence from this step',
  'rewrite-from-suggestions': '## Selected suggestions (',
  'full-rewrite': '## Trajectories (',
};

/** The current skill as the prompt shows it. */
export function currentSkillOf(prompt: string, template: OptimizerPrompt): string {
  const next = NEXT_AFTER_SKILL[template];
  return sectionBetween(prompt, '## Current skill', next === undefined ? ['## Your reply'] : [next, '## Your reply']) ?? '';
}

export interface ReadTrajectory {
  number: number;
  id: string;
  taskType: string;
  hard: number;
  soft: number;
  prediction: string;
  reference?: string;
  failureReason?: string;
  /** The last assistant turn, when turns were recorded. */
  reply?: string;
  /** The first user turn (the question), when recorded. */
  question?: string;
  /** The environment's turns (a spreadsheet evaluation, say), when recorded. */
  environment?: string;
  /** The line before the trajectory's header (`With the current skill:` in comparisons). */
  label: string;
}

const HEADER = /^### Trajectory (\d+) \(id=(.*?), task type=(.*?), hard=([\d.]+), soft=([\d.]+)\)[ \t]*$/gm;
const TURN_START = /^\[(system|user|assistant|tool|environment)(?: [^\]]*)?\] ?/;

/** Every rendered trajectory in a text (reflect, full-rewrite and comparison prompts). */
export function readTrajectories(text: string): ReadTrajectory[] {
  const headers = [...text.matchAll(HEADER)];
  return headers.map((header, index) => {
    const start = (header.index ?? 0) + header[0].length;
    const end = headers[index + 1]?.index ?? text.length;
    const block = text.slice(start, end).split('\n');
    const before = text.slice(0, header.index ?? 0).replace(/\s+$/, '');
    const label = before.slice(before.lastIndexOf('\n') + 1).trim();
    const trajectory: ReadTrajectory = {
      number: Number(header[1]),
      id: header[2] ?? '',
      taskType: header[3] ?? '',
      hard: Number(header[4]),
      soft: Number(header[5]),
      prediction: '',
      label,
    };
    const turns: Array<{ role: string; lines: string[] }> = [];
    let inTurns = false;
    for (const line of block) {
      if (!inTurns) {
        if (line.startsWith('Final answer: ')) trajectory.prediction = line.slice('Final answer: '.length);
        else if (line.startsWith('Reference answer: ')) trajectory.reference = line.slice('Reference answer: '.length);
        else if (line.startsWith('Failure reason: ')) trajectory.failureReason = line.slice('Failure reason: '.length);
        else if (/^Turns \(\d+\):/.test(line)) inTurns = true;
        continue;
      }
      const turn = TURN_START.exec(line);
      if (turn) turns.push({ role: turn[1] as string, lines: [line.slice(turn[0].length)] });
      else if (/^(#### Task |### (Regressions|Persistent failures|Improvements|Stable successes)|With the (previous|current) skill:)/.test(line))
        inTurns = false;
      else turns[turns.length - 1]?.lines.push(line);
    }
    const assistant = turns.filter((turn) => turn.role === 'assistant');
    const lastAssistant = assistant[assistant.length - 1];
    if (lastAssistant) trajectory.reply = lastAssistant.lines.join('\n').replace(/\s+$/, '');
    const user = turns.find((turn) => turn.role === 'user');
    if (user) trajectory.question = user.lines.join('\n');
    const environment = turns.filter((turn) => turn.role === 'environment');
    if (environment.length > 0) trajectory.environment = environment.map((turn) => turn.lines.join('\n')).join('\n');
    return trajectory;
  });
}

export interface NumberedEdit {
  number: number;
  support: number;
  origin?: string;
  op: string;
  target?: string;
  content?: string;
  rationale?: string;
}

const EDIT_LINE = /^\[(\d+)\] \(support (\d+)(?:, from ([^)]*))?\) (\{.*\})[ \t]*$/gm;

/** The numbered edits (`[n] (support s, from …) {json}`) of merge, rank, lr-decide and rewrite prompts. */
export function readNumberedEdits(text: string): NumberedEdit[] {
  const edits: NumberedEdit[] = [];
  for (const match of text.matchAll(EDIT_LINE)) {
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(match[4] as string) as Record<string, unknown>;
    } catch {
      continue;
    }
    const edit: NumberedEdit = { number: Number(match[1]), support: Number(match[2]), op: typeof parsed.op === 'string' ? parsed.op : 'append' };
    if (match[3] !== undefined) edit.origin = match[3];
    if (typeof parsed.target === 'string') edit.target = parsed.target;
    if (typeof parsed.content === 'string') edit.content = parsed.content;
    if (typeof parsed.rationale === 'string') edit.rationale = parsed.rationale;
    edits.push(edit);
  }
  return edits;
}

const FILLER_WORDS = new Set([
  'is',
  'was',
  'answer',
  'according',
  'based',
  'think',
  'believe',
  'it',
  'its',
  'context',
  'sources',
  'question',
  'that',
  'because',
  'so',
  'i',
  'my',
  'would',
  'suggests',
  'go',
  'with',
  'hope',
  'helps',
  'considered',
]);
const NAME_STARTERS = new Set(['The', 'It', 'Is', 'Was', 'A', 'An', 'So', 'My', 'According', 'Based', 'Hope', 'All', 'I', 'Answer']);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The failure classes a careful reader sees in one failed trajectory, from the reply, the extracted
 * answer and the reference alone (the feedback line says the same in words). A wrong fact shows no
 * class: that is a one-off, not something a rule fixes.
 */
export function diagnoseTrajectory(
  trajectory: Pick<ReadTrajectory, 'prediction' | 'reference' | 'reply' | 'question' | 'environment' | 'failureReason'> & { taskType?: string },
): HarmKind[] {
  if (isSleepTrajectory(trajectory)) return diagnoseSleepTrajectory(trajectory);
  if (isSpreadsheetTrajectory(trajectory)) return diagnoseSpreadsheetTrajectory(trajectory);
  if (isAlfworldTrajectory(trajectory)) return diagnoseAlfworldTrajectory(trajectory);
  const found: HarmKind[] = [];
  const { prediction, reply } = trajectory;
  // Envs may list every accepted answer (`Yen | Japanese yen`); the first is the canonical one.
  const reference = trajectory.reference?.split(' | ')[0]?.trim();
  if (reply !== undefined) {
    if (!hasWellFormedAnswerTag(reply)) found.push(hasAnswerTagAttempt(reply) ? 'malformed-tag' : 'missing-tag');
  } else if (hasAnswerTagAttempt(prediction)) found.push('malformed-tag');
  const core = prediction.replace(/<\s*\/?\s*answer\s*>?|\[\s*\/?\s*answer\s*\]/gi, ' ').trim();
  if (reference === undefined) return found;
  const words = plainWords(core);
  const referenceNumber = parseNumeral(reference);
  if (referenceNumber !== undefined) {
    const digits = String(referenceNumber);
    if (numbersInWords(core).includes(referenceNumber) && !words.includes(digits)) found.push('number-words');
    const at = words.indexOf(digits);
    const next = at >= 0 ? words[at + 1] : undefined;
    if (next !== undefined && /^[a-z]+$/.test(next) && !FILLER_WORDS.has(next)) found.push('unit-appended');
  }
  const referenceWords = normalizeAnswer(reference).split(' ');
  const referenceDate = parseWrittenDate(reference);
  if (referenceDate !== undefined && containsNumericDate(core)) found.push('date-format');
  if (referenceWords.length > 1 && words.length === 1 && referenceWords.includes(words[0] as string)) found.push('truncation');
  if (referenceWords.length === 1 && /^[A-Z]/.test(reference.trim())) {
    const fullName = new RegExp(`\\b([A-Z][a-z]+)\\s+${escapeRegExp(reference.trim())}\\b`).exec(core);
    if (fullName && !NAME_STARTERS.has(fullName[1] as string)) found.push('full-name');
  }
  if (!found.includes('missing-tag') && words.length >= 3 && words.some((word) => FILLER_WORDS.has(word))) found.push('verbosity');
  return found;
}
