/**
 * How a reply becomes the action sent to the game, as the original does it: the text between the
 * first `<action>` and the first `</action>` after it, lower-cased and trimmed. A reply without
 * both tags sends its last 30 characters. Whatever is sent, the action counts as valid only when
 * the tags were there, the reasoning was inside `<think></think>`, there is no CJK text, and the
 * action is one of the admissible ones — the last check is ours: the original sent unlisted
 * actions without saying so.
 */

export interface ProjectedAction {
  action: string;
  valid: boolean;
  /** Why the action is not valid, in words the optimizer reads. */
  problem?: string;
}

const TAIL_CHARACTERS = 30;
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;

export function projectAction(reply: string, admissible: readonly string[]): ProjectedAction {
  const lowered = reply.toLowerCase();
  const open = lowered.indexOf('<action>');
  const close = open < 0 ? -1 : lowered.indexOf('</action>', open);
  if (open < 0 || close < 0) {
    return { action: lowered.trim().slice(-TAIL_CHARACTERS).trim(), valid: false, problem: 'no <action>…</action> in the reply' };
  }
  const action = lowered
    .slice(open + '<action>'.length, close)
    .trim()
    .replace(/\s+/g, ' ');
  const thinkOpen = lowered.indexOf('<think>');
  if (thinkOpen < 0 || lowered.indexOf('</think>', thinkOpen) < 0) return { action, valid: false, problem: 'no <think>…</think> before the action' };
  if (CJK.test(reply)) return { action, valid: false, problem: 'the reply has CJK text' };
  if (!admissible.some((candidate) => candidate.toLowerCase() === action))
    return { action, valid: false, problem: 'the action is not one of the admissible actions' };
  return { action, valid: true };
}
