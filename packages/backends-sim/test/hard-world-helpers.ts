import type { ChatModel, TaskItem } from '@skillopt/contract';
import type { HardWorldHabit, HardWorldSettings } from '../src/index';
import { hardScore, systemPrompt, userPrompt } from './helpers';

/** A hard world with nothing random left but what a test switches on. */
export const CALM_SETTINGS: HardWorldSettings = {
  seed: 1,
  noise: 0,
  knowledgeGapRate: 0,
  labelNoiseRate: 0,
  instructionBudget: 6,
  overloadPenalty: 0.06,
  misdiagnosisRate: 0,
  overSpecificRuleRate: 0,
  vagueWordingRate: 0,
};

/** No latent habit at all; a test turns on the ones it studies with `{ ...NO_HABITS, 'number-words': 1 }`. */
export const NO_HABITS: Record<HardWorldHabit, number> = {
  verbosity: 0,
  'missing-tag': 0,
  'malformed-tag': 0,
  'number-words': 0,
  'date-format': 0,
  'unit-appended': 0,
  'full-name': 0,
  truncation: 0,
};

const PLACES = ['Arvandia', 'Belmora', 'Corvath', 'Dunmere', 'Elstow', 'Farrow', 'Glenhaven', 'Harwick', 'Ilmarsh', 'Jorvale', 'Kestrel', 'Lomond'];
const GIVEN = ['Marie', 'Isaac', 'Ada', 'Nikola', 'Rosalind', 'Albert', 'Emmy', 'Charles', 'Jane', 'Louis', 'Grace', 'Alan'];
const SURNAMES = ['Curie', 'Newton', 'Lovelace', 'Tesla', 'Franklin', 'Einstein', 'Noether', 'Darwin', 'Goodall', 'Pasteur', 'Hopper', 'Turing'];
const MONTHS = ['January', 'March', 'May', 'July', 'September', 'November'];

/** Items of every question shape of the hard world, `count` of each (up to 12 names; numbers and dates without limit). */
export function hardWorldItems(count: number, prefix = 'hw'): TaskItem[] {
  const items: TaskItem[] = [];
  for (let index = 0; index < count; index += 1) {
    const place = `${PLACES[index % PLACES.length]} ${Math.floor(index / PLACES.length) + 1}`;
    const person = index % SURNAMES.length;
    const round = Math.floor(index / SURNAMES.length);
    items.push(
      {
        id: `${prefix}-number-${index}`,
        taskType: 'qa',
        question: `How many towers does ${place} have?`,
        references: [String(3 + index * 7)],
        answer_type: 'number',
      },
      {
        id: `${prefix}-date-${index}`,
        taskType: 'qa',
        question: `On what date was the charter of ${place} signed?`,
        references: [`${MONTHS[index % MONTHS.length]} ${1 + (index % 27)}, ${1700 + index}`],
        answer_type: 'date',
      },
      {
        id: `${prefix}-quantity-${index}`,
        taskType: 'qa',
        question: `How tall is the tower of ${place}?`,
        references: [String(120 + index * 37)],
        answer_type: 'quantity',
      },
      {
        id: `${prefix}-surname-${index}`,
        taskType: 'qa',
        question: `Which scientist founded the academy of ${place}?`,
        references: [`${SURNAMES[person]}${round === 0 ? '' : `-${round}`}`],
        answer_type: 'person_surname',
      },
      {
        id: `${prefix}-full-name-${index}`,
        taskType: 'qa',
        question: `What is the full name of the person who mapped ${place}?`,
        references: [`${GIVEN[person]} ${SURNAMES[(person + 5) % SURNAMES.length]}${round === 0 ? '' : `-${round}`}`],
      },
      {
        id: `${prefix}-name-${index}`,
        taskType: 'qa',
        question: `What is the sister city of ${place}?`,
        references: [`${PLACES[(index + 3) % PLACES.length]}ville${round === 0 ? '' : round}`],
      },
    );
  }
  return items;
}

/** The items of one kind (`number`, `date`, `quantity`, `surname`, `full-name`, `name`). */
export function ofKind(items: readonly TaskItem[], kind: string): TaskItem[] {
  return items.filter((item) => new RegExp(`-${kind}-\\d+$`).test(item.id));
}

/** One item answered by a simulated target, scored by the SearchQA scorer. */
export interface AnsweredItem {
  item: TaskItem;
  reply: string;
  hard: number;
  metadata: Record<string, unknown>;
}

/** Every item asked of the target under one skill, as the SearchQA env would ask it. */
export async function answerAll(model: ChatModel, skill: string, items: readonly TaskItem[]): Promise<AnsweredItem[]> {
  return Promise.all(
    items.map(async (item) => {
      const result = await model.generate({
        messages: [
          { role: 'system', content: systemPrompt(skill) },
          { role: 'user', content: userPrompt(item.question as string) },
        ],
        purpose: 'rollout',
      });
      return { item, reply: result.text, hard: hardScore(result.text, item.references as string[]), metadata: result.providerMetadata ?? {} };
    }),
  );
}

/** The mean hard score of answered items. */
export function meanHard(answered: readonly AnsweredItem[]): number {
  return answered.reduce((total, answer) => total + answer.hard, 0) / answered.length;
}
