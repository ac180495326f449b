import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { PUBLISHED_BACKENDS } from './published-backends.js';

/**
 * What a string option of a tool may hold. Every word is quoted for the shell, but Sleep writes the
 * project and the night's options into a crontab line or a systemd unit when it schedules, so the
 * values are kept to what a path, a name or a time needs: no quotes, `$`, `;`, `|`, `&`, `<`, `>`,
 * backticks, brackets, `*`, `?`, `%` (a new line in a crontab), `~` (never expanded here),
 * backslashes or control characters, and nothing that starts with `-` and would read as a flag.
 */
export type ValueKind = { kind: 'path' } | { kind: 'name' } | { kind: 'time' } | { kind: 'backend' } | { kind: 'integer'; from: number; to?: number };

const PLAIN_PATH = /^[\p{L}\p{M}\p{N} ._,/:@+=-]+$/u;
const PLAIN_NAME = /^[\p{L}\p{M}\p{N}._,/:@+=-]+$/u;
const TIME = /^[0-9][0-9A-Za-z.:+-]*$/;
const LONGEST_PATH = 4096;
const LONGEST_NAME = 200;

function refused(what: string, value: unknown, rule: string): SkillOptError {
  return new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    message: `${what} ${JSON.stringify(value)} was refused: ${rule}`,
  });
}

/** Throws when `value` is not what the kind allows; `what` names where it came from, for the message. */
export function checkValue(value: unknown, valueKind: ValueKind, what: string): void {
  switch (valueKind.kind) {
    case 'integer': {
      const upTo = valueKind.to === undefined ? '' : ` to ${valueKind.to}`;
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < valueKind.from || (valueKind.to !== undefined && value > valueKind.to))
        throw refused(what, value, `it must be a whole number from ${valueKind.from}${upTo}.`);
      return;
    }
    case 'backend':
      if (typeof value !== 'string' || !PUBLISHED_BACKENDS.includes(value)) throw refused(what, value, `the backends are ${PUBLISHED_BACKENDS.join(', ')}.`);
      return;
    case 'path':
      if (typeof value !== 'string' || value.length > LONGEST_PATH || value.startsWith('-') || !PLAIN_PATH.test(value))
        throw refused(
          what,
          value,
          'give a plain path, absolute or relative: letters, digits, spaces and . _ , / : @ + = -, not starting with -. No quotes, $ ; | & < > ` ( ) [ ] { } * ? % ~ \\ or control characters.',
        );
      return;
    case 'name':
      if (typeof value !== 'string' || value.length > LONGEST_NAME || value.startsWith('-') || !PLAIN_NAME.test(value))
        throw refused(what, value, 'give a name of letters, digits and . _ , / : @ + = -, with no spaces, not starting with -.');
      return;
    case 'time':
      if (typeof value !== 'string' || value.length > LONGEST_NAME || !TIME.test(value))
        throw refused(what, value, 'give a time such as 2026-05-01 or 2026-05-01T09:00:00Z, or a span such as 72h, 3d or 2w.');
      return;
  }
}
