import { messageText, type GenerateRequest, type Message, type SleepStage } from '@skillopt/contract';

/**
 * Sleep's model stages other than the replay, as the simulated model answers them. It tells them
 * by the call's purpose (the contract's stage vocabulary: `mine`, `judge`), whatever its role, and
 * reads the prompt the way a careful model would; everything it writes is labelled simulated.
 */

const STOP_WORDS = new Set([
  'that',
  'this',
  'with',
  'from',
  'have',
  'what',
  'when',
  'which',
  'must',
  'should',
  'answer',
  'about',
  'their',
  'there',
  'these',
  'into',
  'gets',
  'right',
]);

function userText(messages: readonly Message[]): string {
  return messages
    .filter((message) => message.role === 'user')
    .map(messageText)
    .join('\n');
}

function between(text: string, open: string, close: string): string | undefined {
  const start = text.indexOf(open);
  if (start < 0) return undefined;
  const end = text.indexOf(close, start + open.length);
  return end < 0 ? undefined : text.slice(start + open.length, end).trim();
}

function contentWords(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}:._-]*[\p{L}\p{N}]/gu) ?? [];
  return [...new Set(words.filter((word) => word.length > 3 && !STOP_WORDS.has(word)))];
}

/** Which of Sleep's stages a request is: its purpose says so and its prompt has that stage's shape. */
export function sleepStageOf(request: Pick<GenerateRequest, 'purpose' | 'messages'>): Exclude<SleepStage, 'replay'> | undefined {
  const text = userText(request.messages);
  if (request.purpose === 'judge' && text.includes('<rubric>') && text.includes('<answer>')) return 'judge';
  if (request.purpose === 'mine' && text.includes('# Developer prompts\n')) return 'mine';
  return undefined;
}

/** The simulated rubric judge: the share of the rubric's content words the answer contains. */
export function answerSleepJudge(messages: readonly Message[]): string {
  const text = userText(messages);
  const rubric = between(text, '<rubric>', '</rubric>') ?? '';
  const answer = (between(text, '<answer>', '</answer>') ?? '').toLowerCase();
  const words = contentWords(rubric);
  const found = words.filter((word) => answer.includes(word));
  const score = words.length === 0 ? 0 : Math.round((found.length / words.length) * 1000) / 1000;
  return JSON.stringify({ score, reason: `simulated judge: ${found.length} of ${words.length} rubric words in the answer` });
}

function section(text: string, heading: string): string {
  const start = text.indexOf(`# ${heading}\n`);
  if (start < 0) return '';
  const rest = text.slice(start + heading.length + 3);
  const next = rest.search(/^# /m);
  return (next < 0 ? rest : rest.slice(0, next)).trim();
}

/** The distinctive part of an accepted reply a check can look for: an identifier, a number, else its longest word. */
function distinctivePart(reply: string): string | undefined {
  const identifier = /\b(?:arXiv:\d{4}\.\d{4,5}|[A-Z][A-Za-z]+(?:\.[A-Za-z]+)+|\d+(?:\.\d+)+)\b/.exec(reply)?.[0];
  if (identifier !== undefined) return identifier;
  const words = reply.split(/\s+/).filter((word) => /^[\p{L}\p{N}-]{6,}$/u.test(word));
  return words.sort((left, right) => right.length - left.length)[0];
}

/**
 * The simulated miner: one task per session, the developer's first prompt as the request. A
 * session the developer was satisfied with gives rule checks on what its last reply delivered; any
 * other session gives a rubric from the request alone.
 */
export function answerSleepMiner(messages: readonly Message[]): string {
  const text = userText(messages);
  const prompts = section(text, 'Developer prompts')
    .split('\n')
    .map((line) => line.replace(/^\s*-\s*/, '').trim())
    .filter((line) => line !== '' && line !== '(none)');
  const first = prompts[0];
  if (first === undefined) return '[]';
  const reply = section(text, 'Last agent reply');
  const signals = section(text, 'Signals');
  const satisfied = /\bpositive\b|\bpassed\b/.test(signals) && !/\bnegative\b|\bfailed\b|\berror\b/.test(signals);
  const delivered = satisfied && reply !== '(none)' ? distinctivePart(reply) : undefined;
  const task =
    delivered === undefined
      ? { intent: first, rubric: `A good answer does what was asked: ${first}`, checks: [{ op: 'no_refusal', arg: null }], satisfied }
      : {
          intent: first,
          checks: [
            { op: 'contains', arg: delivered },
            { op: 'no_refusal', arg: null },
          ],
          satisfied,
        };
  return JSON.stringify([task]);
}
