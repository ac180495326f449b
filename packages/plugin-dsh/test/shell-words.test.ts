import { execFileSync } from 'node:child_process';
import { shellCommandLine, shellWord } from '../src/shell-words';

/** Quoting checked by bash itself: each word, however hostile, comes back as exactly one word, unchanged. */
const hostile = [
  "it's",
  "'",
  "''",
  "'\\''",
  '$(touch /tmp/plugin-dsh-owned)',
  '`touch /tmp/plugin-dsh-owned`',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's own expansion, which the quoting must keep literal
  '${HOME}',
  '$HOME',
  'a;b|c&d',
  'a > /tmp/plugin-dsh-owned',
  '"double"',
  'back\\slash',
  'new\nline',
  'carriage\rreturn',
  'tab\there',
  'escape\u001b[31m',
  '!history',
  '*',
  '~',
  '-n',
  '',
  ' leading and trailing ',
  'ünïcødé 名前',
];

function wordsBashReads(commandLine: string): string[] {
  return execFileSync('bash', ['-c', `printf '%s\\0' ${commandLine}`], { encoding: 'utf8' })
    .split('\0')
    .slice(0, -1);
}

describe('shell words', () => {
  it('single-quote each word and escape a single quote as quote, backslash-quote, quote', () => {
    expect(shellWord('plain')).toBe("'plain'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
  });

  it('reach bash as exactly the words given, whatever they hold', () => {
    for (const word of hostile) expect(wordsBashReads(shellWord(word))).toEqual([word]);
    expect(wordsBashReads(shellCommandLine(hostile))).toEqual(hostile);
  });
});
