import type { TaskItem } from '@skillopt/contract';
import { parseWrittenDate } from './dates.js';
import { pick } from './hashing.js';
import { parseNumeral } from './numbers.js';
import { normalizeAnswer } from './text.js';
import { readWorkbookCases, type WorkbookCase } from './workbook-answer.js';

/** The shapes of answer the simulated target knows how to get wrong in shape-specific ways. */
export const ANSWER_SHAPES = ['number', 'date', 'quantity', 'person_surname', 'name', 'multiword_name'] as const;
export type AnswerShape = (typeof ANSWER_SHAPES)[number];

/** One fact the simulated model "knows": a question and its gold answer, from a task item. */
export interface AnswerKeyEntry {
  id: string;
  question: string;
  /** The question after SQuAD normalisation: what user messages are matched against. */
  normalizedQuestion: string;
  /** The canonical gold answer (the item's first reference). */
  gold: string;
  references: string[];
  shape: AnswerShape;
  /** For quantities: the unit a careless answer appends (`metres`), read from the question. */
  unit?: string;
  /** For a spreadsheet task: its test cases, when every reference is in the workbook answer format. */
  workbookCases?: WorkbookCase[];
  /** The item's tags, when it has any (Sleep's tasks: `rule:<key>` names the format the developer wanted). */
  tags?: string[];
}

/**
 * The simulated model's knowledge. It is labelled as such everywhere: it is built from the task
 * items' `question` and `references`, the simulated target "knows" exactly these facts, and gold
 * answers never have to travel inside prompts for its sake.
 */
export interface AnswerKey {
  readonly label: string;
  readonly entries: readonly AnswerKeyEntry[];
  readonly size: number;
  /** The entry whose question occurs in `text` (normalised substring; the longest wins), if any. */
  lookup(text: string): AnswerKeyEntry | undefined;
  /** Entries of one shape, for plausible wrong answers. */
  ofShape(shape: AnswerShape): readonly AnswerKeyEntry[];
}

export const ANSWER_KEY_LABEL = 'SIMULATED KNOWLEDGE: an answer key built from the task items (question + references); a stand-in for what a real model knows';

const MEASURE_UNITS: Array<[RegExp, string]> = [
  [
    /\bin (metres|meters|feet|kilometres|kilometers|miles|kilograms|pounds|tonnes|tons|seconds|minutes|hours|days|years|litres|liters|degrees(?: celsius| fahrenheit)?)\b/,
    '$1',
  ],
  [/\b(tall|high|height|deep|depth|elevation|altitude)\b/, 'metres'],
  [/\b(long|length|far|distance|wide|width|diameter|radius)\b/, 'kilometres'],
  [/\b(weigh|weighs|weight|heavy|mass)\b/, 'kilograms'],
  [/\b(temperature|boil|boils|melt|melts|freeze|freezes|hot|cold)\b/, 'degrees Celsius'],
  [/\b(speed|fast)\b/, 'km/h'],
  [/\b(area)\b/, 'square kilometres'],
  [/\b(old|age|lifespan)\b/, 'years'],
  [/\b(population|inhabitants)\b/, 'people'],
];

/** The unit a measured value in this question is counted in, when the question shows one. */
export function unitForQuestion(question: string): string | undefined {
  const lower = question.toLowerCase();
  for (const [pattern, unit] of MEASURE_UNITS) {
    const match = pattern.exec(lower);
    if (match) return unit === '$1' ? (match[1] as string) : unit;
  }
  return undefined;
}

export const PERSON_CUES =
  /\b(who|whom|whose|surname|last name|family name|scientist|physicist|chemist|mathematician|author|writer|poet|painter|composer|inventor|president|king|queen|emperor|person|explorer|philosopher|actor|actress|singer)\b/i;

/** The answer's shape: the item's `answer_type` when it names one, otherwise inferred from the gold and the question. */
function inferAnswerShape(gold: string, question: string, answerType?: unknown): AnswerShape {
  if (typeof answerType === 'string' && (ANSWER_SHAPES as readonly string[]).includes(answerType)) return answerType as AnswerShape;
  if (parseWrittenDate(gold) !== undefined) return 'date';
  if (parseNumeral(gold) !== undefined) return unitForQuestion(question) !== undefined ? 'quantity' : 'number';
  const words = gold.trim().split(/\s+/);
  if (words.length > 1) return 'multiword_name';
  if (PERSON_CUES.test(question)) return 'person_surname';
  return 'name';
}

/** Builds the answer key from task items; items without a question or a reference are left out. */
export function createAnswerKey(items: readonly TaskItem[]): AnswerKey {
  const entries: AnswerKeyEntry[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const question = typeof item.question === 'string' ? item.question : undefined;
    const references = Array.isArray(item.references) ? item.references.filter((reference): reference is string => typeof reference === 'string') : [];
    const gold = references[0];
    if (question === undefined || gold === undefined || gold.trim() === '') continue;
    const normalizedQuestion = normalizeAnswer(question);
    if (normalizedQuestion === '' || seen.has(normalizedQuestion)) continue;
    seen.add(normalizedQuestion);
    const shape = inferAnswerShape(gold, question, item.answer_type);
    const entry: AnswerKeyEntry = { id: item.id, question, normalizedQuestion, gold: gold.trim(), references, shape };
    if (shape === 'quantity') entry.unit = unitForQuestion(question) ?? 'units';
    const workbookCases = readWorkbookCases(references);
    if (workbookCases !== undefined) entry.workbookCases = workbookCases;
    const tags = Array.isArray(item.tags) ? item.tags.filter((tag): tag is string => typeof tag === 'string') : [];
    if (tags.length > 0) entry.tags = tags;
    entries.push(entry);
  }
  const byShape = new Map<AnswerShape, AnswerKeyEntry[]>();
  // A workbook answer, or a Sleep task's formatted reply, is no plausible wrong answer to a question.
  for (const entry of entries)
    if (entry.workbookCases === undefined && !(entry.tags ?? []).some((tag) => tag.startsWith('rule:')))
      byShape.set(entry.shape, [...(byShape.get(entry.shape) ?? []), entry]);
  return {
    label: ANSWER_KEY_LABEL,
    entries,
    size: entries.length,
    lookup(text: string): AnswerKeyEntry | undefined {
      const normalized = normalizeAnswer(text);
      let best: AnswerKeyEntry | undefined;
      for (const entry of entries) {
        if (normalized.includes(entry.normalizedQuestion) && (best === undefined || entry.normalizedQuestion.length > best.normalizedQuestion.length))
          best = entry;
      }
      return best;
    },
    ofShape: (shape) => byShape.get(shape) ?? [],
  };
}

export const EMPTY_ANSWER_KEY: AnswerKey = createAnswerKey([]);

/** The shape a question seems to ask for, when the key does not know it (for a plausible wrong answer). */
export function guessShapeFromQuestion(question: string): AnswerShape {
  const lower = question.toLowerCase();
  if (/\b(when|what date|on what day)\b/.test(lower)) return 'date';
  if (/\bhow (many|much)\b|\bwhat year\b|\bnumber of\b/.test(lower)) return unitForQuestion(lower) !== undefined ? 'quantity' : 'number';
  if (unitForQuestion(lower) !== undefined && /\bhow\b/.test(lower)) return 'quantity';
  if (PERSON_CUES.test(lower)) return 'person_surname';
  return 'name';
}

const FALLBACK_WRONG: Record<AnswerShape, readonly string[]> = {
  number: ['3', '7', '12', '42'],
  date: ['March 3, 1901', 'October 12, 1954', 'June 1, 1977'],
  quantity: ['120', '450', '1000'],
  person_surname: ['Smith', 'Müller', 'Tanaka', 'Rossi'],
  name: ['Lyon', 'Oslo', 'Quito', 'Perth'],
  multiword_name: ['Atlantic Ocean', 'Rocky Mountains', 'Lake Victoria'],
};

/** A plausible wrong answer of the same shape: a nearby number, a shifted date, another item's answer. */
export function plausibleWrongAnswer(key: AnswerKey, shape: AnswerShape, gold: string | undefined, ...seedParts: Array<string | number>): string {
  if (gold !== undefined) {
    const numeral = parseNumeral(gold);
    if (numeral !== undefined && (shape === 'number' || shape === 'quantity')) {
      const offset = 1 + Math.floor(pick([0, 1, 2], ...seedParts, 'offset'));
      return String(Number.isInteger(numeral) ? numeral + (numeral > 5 && pick([true, false], ...seedParts, 'sign') ? -offset : offset) : numeral + offset);
    }
    const date = parseWrittenDate(gold);
    if (date !== undefined) return gold.replace(String(date.year), String(date.year + pick([1, 2, 3, -1, -2], ...seedParts, 'year')));
  }
  const normalizedGold = gold === undefined ? '' : normalizeAnswer(gold);
  const others = key.ofShape(shape).filter((entry) => normalizeAnswer(entry.gold) !== normalizedGold);
  if (others.length > 0) return pick(others, ...seedParts, 'other').gold;
  const fallbacks = FALLBACK_WRONG[shape].filter((answer) => normalizeAnswer(answer) !== normalizedGold);
  return pick(fallbacks.length > 0 ? fallbacks : FALLBACK_WRONG[shape], ...seedParts, 'fallback');
}
