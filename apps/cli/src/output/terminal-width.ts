// The escape sequences the CLI writes: SGR styles (colours, bold, dim).
const STYLE_SEQUENCES = /\u001b\[[0-9;]*m/g;

/** The columns text takes: a style sequence none, every other character (code point) one. */
export function visibleWidth(text: string): number {
  return [...text.replace(STYLE_SEQUENCES, '')].length;
}

/**
 * The text cut to fit a status line of `columns` columns without wrapping: at most `columns - 1`
 * visible characters (a line that fills the last column makes some terminals wrap it), the cut
 * marked with `…`, and the styles reset when the cut may have left one open.
 */
export function cutToWidth(text: string, columns: number | undefined): string {
  if (columns === undefined || columns < 2) return text;
  const room = columns - 1;
  if (visibleWidth(text) <= room) return text;
  let kept = '';
  let visible = 0;
  let styled = false;
  // Split into style sequences and the text between them, then take characters until room - 1.
  for (const part of text.split(/(\u001b\[[0-9;]*m)/)) {
    if (part.startsWith('\u001b[')) {
      kept += part;
      styled = true;
      continue;
    }
    for (const character of part) {
      if (visible === room - 1) return `${kept}…${styled ? '\u001b[0m' : ''}`;
      kept += character;
      visible += 1;
    }
  }
  return `${kept}…${styled ? '\u001b[0m' : ''}`;
}
