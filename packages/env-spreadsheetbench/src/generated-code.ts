/**
 * The script in a reply: the text between the first fence line (```python, or any ```) and the
 * next fence line. A reply without a fence, or with an unterminated one, is taken whole as the
 * original did (a model that answers with bare code still runs). Empty when there is no code.
 */
export function extractScript(reply: string): string {
  const lines = reply.split(/\r?\n/);
  const opening = lines.findIndex((line) => line.trimStart().startsWith('```'));
  if (opening >= 0) {
    const closing = lines.findIndex((line, index) => index > opening && line.trimStart().startsWith('```'));
    if (closing > opening)
      return lines
        .slice(opening + 1, closing)
        .join('\n')
        .trim();
    return lines
      .slice(opening + 1)
      .join('\n')
      .trim();
  }
  return reply.trim();
}
