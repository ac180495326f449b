import type { ChatModel, TaskItem } from '@skillopt/contract';

/** The SearchQA scorer, written out independently of the package: last <answer>, else last line; SQuAD EM. */
export function extract(reply: string): string {
  const matches = [...reply.matchAll(/<answer>(.*?)<\/answer>/gis)];
  if (matches.length > 0) return (matches[matches.length - 1]?.[1] ?? '').trim();
  const lines = reply
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return lines[lines.length - 1] ?? reply.trim();
}

export function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '')
    .replace(/\b(a|an|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function hardScore(reply: string, references: readonly string[]): number {
  const prediction = normalize(extract(reply));
  return references.some((reference) => normalize(reference) === prediction) ? 1 : 0;
}

export const ENVELOPE =
  'You answer trivia questions. Think step by step, then you must give a concise final answer inside <answer></answer> tags.\n\n## Skill\n';

export const INITIAL_SKILL = '# Question Answering Skill\n\n(No learned rules yet. Rules will be added through the reflection process.)\n';

export function systemPrompt(skill: string): string {
  return `${ENVELOPE}${skill}`;
}

export function userPrompt(question: string): string {
  return `## Context\n[DOC] [TLE] Some page [PAR] Some snippet that mentions many things.\n\n## Question\n${question}`;
}

const NUMBER_NOUNS = ['moons', 'bridges', 'towers', 'islands', 'lakes', 'gates', 'temples', 'rivers', 'museums', 'stadiums'];
const PLACES = ['Arvandia', 'Belmora', 'Corvath', 'Dunmere', 'Elstow', 'Farrow', 'Glenhaven', 'Harwick', 'Ilmarsh', 'Jorvale'];
const DATES = [
  'July 20, 1969',
  'March 3, 1875',
  'October 12, 1492',
  'June 6, 1944',
  'April 15, 1912',
  'November 9, 1989',
  'May 29, 1953',
  'August 6, 1945',
  'December 17, 1903',
  'January 1, 1901',
];
const SURNAMES = ['Curie', 'Newton', 'Darwin', 'Tesla', 'Faraday', 'Pasteur', 'Kepler', 'Galilei', 'Mendel', 'Bohr'];
const CITIES = ['Canberra', 'Ottawa', 'Wellington', 'Brasilia', 'Nairobi', 'Lima', 'Hanoi', 'Oslo', 'Dublin', 'Quito'];
const MULTI = [
  'Pacific Ocean',
  'Rocky Mountains',
  'Lake Victoria',
  'Sahara Desert',
  'Amazon River',
  'Indian Ocean',
  'Gobi Desert',
  'Lake Baikal',
  'Andes Mountains',
  'Red Sea',
];
const MEASURES: Array<[string, string]> = [
  ['How tall is the tower of', 'metres'],
  ['How long is the main river of', 'kilometres'],
  ['How much does the great bell of', 'kilograms'],
];

/** 60 synthetic items, ten of each answer shape; every other one without `answer_type` (shape inferred). */
export function syntheticItems(): TaskItem[] {
  const items: TaskItem[] = [];
  for (let index = 0; index < 10; index += 1) {
    const place = PLACES[index] as string;
    const typed = index % 2 === 0;
    const withType = (item: TaskItem, type: string): TaskItem => (typed ? { ...item, answer_type: type } : item);
    items.push(
      withType(
        { id: `num-${index}`, taskType: 'qa', question: `How many ${NUMBER_NOUNS[index]} does ${place} have?`, references: [String(3 + index * 7)] },
        'number',
      ),
    );
    items.push(
      withType(
        { id: `date-${index}`, taskType: 'qa', question: `On what date was the charter of ${place} signed?`, references: [DATES[index] as string] },
        'date',
      ),
    );
    const [prefix] = MEASURES[index % 3] as [string, string];
    const question = prefix.startsWith('How much') ? `${prefix} ${place} weigh?` : `${prefix} ${place}?`;
    items.push(withType({ id: `qty-${index}`, taskType: 'qa', question, references: [String(120 + index * 37)] }, 'quantity'));
    items.push(
      withType(
        { id: `person-${index}`, taskType: 'qa', question: `Which scientist founded the academy of ${place}?`, references: [SURNAMES[index] as string] },
        'person_surname',
      ),
    );
    items.push(
      withType({ id: `name-${index}`, taskType: 'qa', question: `What is the sister city of ${place}?`, references: [CITIES[index] as string] }, 'name'),
    );
    items.push(
      withType(
        { id: `multi-${index}`, taskType: 'qa', question: `What landmark is nearest to ${place}?`, references: [MULTI[index] as string] },
        'multiword_name',
      ),
    );
  }
  return items;
}

export async function ask(model: ChatModel, skill: string, question: string): Promise<string> {
  const result = await model.generate({
    messages: [
      { role: 'system', content: systemPrompt(skill) },
      { role: 'user', content: userPrompt(question) },
    ],
    purpose: 'rollout',
  });
  return result.text;
}

/** Hard accuracy (count of passes) of a skill over items. */
export async function passes(model: ChatModel, skill: string, items: readonly TaskItem[]): Promise<number> {
  let count = 0;
  for (const item of items) count += hardScore(await ask(model, skill, item.question as string), item.references as string[]);
  return count;
}

/** One good rule per class: the skill a successful optimization should reach. */
export const GOOD_SKILL = `${INITIAL_SKILL}
## Answer format
- Always finish your reply with the final answer wrapped in <answer></answer> tags.
- Write the tags exactly as <answer> and </answer>, with the closing slash.
- Put only the answer itself inside the tags: no explanation, no full sentence.
- Write numbers with digits, never in words.
- Write dates with the month name, as Month D, YYYY.
- For measurements, give the bare number without units.
- For people, give only the surname.
`;
