/**
 * Wraps text to `columns` as oclif's help does (wrap-ansi 7 with `hard: true`), for text in which
 * every character is one column wide and there is no escape sequence: what `isPlainHelpText`
 * admits. Words are split on spaces; a word longer than a row is broken across rows.
 */
export function wrapText(text: string, columns: number): string {
  return text
    .normalize()
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => wrapLine(line, columns))
    .join('\n');
}

/** Text whose every character is one column wide: printable ASCII, Latin-1 and the common punctuation (dashes, quotes, ellipsis). */
export function isPlainHelpText(text: string): boolean {
  return /^[\n\u0020-\u007e\u00a0-\u00ff\u2010-\u2027]*$/.test(text) && !text.includes('<%');
}

function wrapLine(line: string, columns: number): string {
  if (line.trim() === '') return '';
  const rows = [''];
  for (const [index, word] of line.split(' ').entries()) {
    rows[rows.length - 1] = rows.at(-1)!.trimStart();
    let rowLength = rows.at(-1)!.length;
    if (index !== 0 && rowLength > 0) {
      rows[rows.length - 1] += ' ';
      rowLength++;
    }
    if (word.length > columns) {
      // wrap-ansi starts a long word on a new row when that saves a break.
      const breaksStartingThisRow = 1 + Math.floor((word.length - (columns - rowLength) - 1) / columns);
      const breaksStartingNextRow = Math.floor((word.length - 1) / columns);
      if (breaksStartingNextRow < breaksStartingThisRow) rows.push('');
      breakWord(rows, word, columns);
      continue;
    }
    if (rowLength + word.length > columns && rowLength > 0 && word.length > 0) rows.push('');
    rows[rows.length - 1] += word;
  }
  return rows.map((row) => row.replace(/ +$/, '')).join('\n');
}

function breakWord(rows: string[], word: string, columns: number): void {
  let visible = rows.at(-1)!.length;
  for (const [index, character] of [...word].entries()) {
    if (visible + 1 <= columns) rows[rows.length - 1] += character;
    else {
      rows.push(character);
      visible = 0;
    }
    visible++;
    if (visible === columns && index < word.length - 1) {
      rows.push('');
      visible = 0;
    }
  }
}
