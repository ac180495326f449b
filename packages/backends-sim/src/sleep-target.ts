import type { AnswerKeyEntry } from './answer-key.js';
import type { RuleEffects } from './failure-classes.js';
import { hashHex, unitHash } from './hashing.js';
import { pastTenseSubject } from './past-tense.js';
import { normalizeAnswer } from './text.js';
import { SLEEP_FORMAT_HARM, SLEEP_HARMFUL_TASK_KEY, SLEEP_RULE_CLASSES, type SleepHabit, type SleepRuleKey } from './sleep-failure-classes.js';

/**
 * The simulated target on Sleep's replay requests. A task tagged `rule:<key>` wants one format;
 * each wanted format whose rule the skill lacks (or that a harmful rule overrides) leaves its habit
 * in the reply, so Sleep's exact-match judge fails it. With every rule present the reply holds the
 * reference verbatim. Deterministic in (seed, task, skill).
 */

/** The opening of a reply whose answer the model did not wrap: what the optimizer sees as the unwrapped habit. */
export const UNWRAPPED_ANSWER_MARKER = 'Answer: ';
/** The opening of a reply that wraps its answer in `<answer>` tags. */
const WRAPPED_ANSWER_OPENING = 'Here is the result. ';
/** The reply to a task no rule can satisfy: it never holds the reference. */
const HARMFUL_TASK_REPLY = 'I will answer this my own way and leave the requested format aside.';

const KNOWN_KEYS = [...Object.keys(SLEEP_RULE_CLASSES), SLEEP_HARMFUL_TASK_KEY] as readonly string[];

/** The known rule keys a task's `rule:<key>` tags name, in tag order; unknown keys are ignored. */
export function sleepRulesOf(tags: readonly string[] | undefined): SleepRuleKey[] {
  const keys: SleepRuleKey[] = [];
  for (const tag of tags ?? []) {
    const key = /^rule:(.+)$/.exec(tag.trim())?.[1]?.trim();
    if (key !== undefined && KNOWN_KEYS.includes(key) && !keys.includes(key as SleepRuleKey)) keys.push(key as SleepRuleKey);
  }
  return keys;
}

/** Whether the entry is a Sleep task the simulated target has habits for (at least one known `rule:` tag). */
export function isSleepRuleTask(entry: AnswerKeyEntry | undefined): boolean {
  return entry !== undefined && sleepRulesOf(entry.tags).length > 0;
}

/** A harness's reminders inside a user turn are its own context, not the developer's words. */
const HARNESS_REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

/**
 * The skill a Sleep task is answered with in a conversation: the skill's rules, then what the
 * developer said in the turns after the one that asked the question ("give arXiv ids with their
 * arXiv: prefix"), which a model follows for the rest of that conversation as it follows its skill.
 * A replay is a new conversation: it asks once, so only the skill's rules hold there.
 */
export function skillWithDeveloperInstructions(skill: string, userTexts: readonly string[], entry: AnswerKeyEntry): string {
  const asked = userTexts.findIndex((text) => normalizeAnswer(text).includes(entry.normalizedQuestion));
  if (asked < 0) return skill;
  const instructions = userTexts
    .slice(asked + 1)
    .map((text) => text.replace(HARNESS_REMINDER, ' ').trim())
    .filter((text) => text !== '');
  return instructions.length === 0 ? skill : `${skill}\n\n${instructions.join('\n')}`;
}

export interface SleepDecision {
  rules: SleepRuleKey[];
  /** The habits the reply shows (the wanted rules the skill lacks or a harmful rule overrides). */
  habits: SleepHabit[];
  harmfulTask: boolean;
  noisy: boolean;
  reply: string;
}

/** Sleep's habits are not tendencies: each shows whenever its rule is missing, so only the seed and noise matter. */
export interface SleepSettings {
  seed: number;
  noise: number;
}

/** The habit of one class applied to the answer text. */
function withHabit(habit: SleepHabit, answer: string): string {
  if (habit === 'bare-arxiv-id') return answer.replace(/\barxiv:\s*/gi, '');
  if (habit === 'past-tense-commit') return pastTenseSubject(answer);
  return answer;
}

export function decideSleepBehaviour(settings: SleepSettings, entry: AnswerKeyEntry, skill: string, effects: RuleEffects): SleepDecision {
  const rules = sleepRulesOf(entry.tags);
  const skillHash = hashHex(skill).slice(0, 16);
  const itemKey = entry.normalizedQuestion;
  if (rules.includes(SLEEP_HARMFUL_TASK_KEY)) return { rules, habits: [], harmfulTask: true, noisy: false, reply: HARMFUL_TASK_REPLY };
  const ignoresFormat = effects.harms.has(SLEEP_FORMAT_HARM);
  const habits = rules
    .map((key) => SLEEP_RULE_CLASSES[key as keyof typeof SLEEP_RULE_CLASSES])
    .filter((habit) => ignoresFormat || effects.harms.has(habit) || !effects.fixes.has(habit));
  let answer = entry.gold;
  for (const habit of habits) answer = withHabit(habit, answer);
  const noisy = unitHash(settings.seed, 'noise', itemKey, skillHash) < settings.noise;
  if (noisy) answer = answer.length > 3 ? answer.slice(0, -2) : 'unknown';
  let reply: string;
  if (!rules.includes('wrap-answer')) reply = answer;
  else if (habits.includes('missing-tag')) reply = `${UNWRAPPED_ANSWER_MARKER}${answer}`;
  else reply = `${WRAPPED_ANSWER_OPENING}<answer>${answer}</answer>`;
  return { rules, habits, harmfulTask: false, noisy, reply };
}
