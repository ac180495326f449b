import { ruleKey } from '../learned-block/learned-rules.js';

/** The heading the optimizer sees above the rules: what they are, even when there are none yet. */
const LEARNED_SKILL_HEADING = '# Rules learned from your sessions';

/**
 * What a night trains is the learned block's rules, one per line, as the skill text the optimizer
 * edits; the rest of the skill document stays as the developer wrote it. These two functions turn
 * the rules into that text and back. A line's own leading dashes are content (`--no-verify`):
 * only one bullet marker and the space after it are taken off.
 */
export function skillTextOfRules(rules: readonly string[]): string {
  return [LEARNED_SKILL_HEADING, ...rules.map((rule) => `- ${rule}`)].join('\n');
}

/** The rules of a skill text the optimizer edited: each line that is not a heading, once. */
export function rulesOfSkillText(text: string): string[] {
  const rules = new Map<string, string>();
  for (const line of text.split('\n')) {
    const rule = line
      .trim()
      .replace(/^[-*+] /, '')
      .trim();
    // Repeats are one rule, as the learned block counts them (ruleKey), so the report lists what the block holds.
    if (rule !== '' && !rule.startsWith('#') && !rules.has(ruleKey(rule))) rules.set(ruleKey(rule), rule);
  }
  return [...rules.values()];
}
