/**
 * The file's text inside what a harness's read or shell tool sent back: without the framing some
 * add (an exit-code header ending in "Output:", a trailing shell-status tag, a `<content>` wrapper,
 * an end-of-file note) and without line numbers when every line carries one (`cat -n` style
 * `   1\t…`, `1: …`, `00001| …`, `1. …`, `1→…`).
 */
export function fileTextOfToolOutput(output: string): string {
  let text = output.replace(/\r\n/g, '\n');
  const header = /^(?:[^\n]*\n){0,8}?Output:\n/.exec(text);
  if (header && /exit|code|wall time|chunk/i.test(header[0])) text = text.slice(header[0].length);
  const wrapped = /<content>\n?([\s\S]*?)\n?<\/content>/.exec(text);
  if (wrapped?.[1] !== undefined) text = wrapped[1];
  text = text
    .replace(/\n?<[\w-]*shell[\w-]*:[^>\n]*>\s*$/i, '')
    .replace(/\n?\((?:End of file|File has)[^)\n]*\)\s*$/i, '')
    .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '');
  const lines = text.split('\n');
  const numbered = /^\s*\d+(?:\t|: |\| |\. |→)/;
  const contentLines = lines.filter((line) => line.trim() !== '');
  if (contentLines.length > 0 && contentLines.every((line) => numbered.test(line) || /^\s*\d+$/.test(line)))
    text = lines.map((line) => line.replace(numbered, '').replace(/^\s*\d+$/, '')).join('\n');
  return text.trim();
}
