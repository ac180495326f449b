// Reading what renderToString wrote, without a DOM: the elements that carry a test id, with their
// attributes and text.

export interface RenderedElement {
  attributes: Record<string, string>;
  text: string;
}

/** Every element whose `data-testid` is `testId`, in document order. */
export function elementsWithTestId(html: string, testId: string): RenderedElement[] {
  const elements: RenderedElement[] = [];
  const openingTag = new RegExp(`<([a-z0-9]+)((?:\\s[^>]*)?\\sdata-testid="${testId}"[^>]*)>`, 'g');
  for (const match of html.matchAll(openingTag)) {
    const tagName = match[1]!;
    const start = match.index + match[0].length;
    const end = html.indexOf(`</${tagName}>`, start);
    elements.push({ attributes: attributesOf(match[2]!), text: textOf(html.slice(start, end === -1 ? undefined : end)) });
  }
  return elements;
}

/** The one element with that test id; fails the test when there is none or more than one. */
export function elementWithTestId(html: string, testId: string): RenderedElement {
  const elements = elementsWithTestId(html, testId);
  if (elements.length !== 1) throw new Error(`expected one element with data-testid="${testId}", found ${elements.length}`);
  return elements[0]!;
}

/** The targets of every link, as the browser reads them. */
export function linkTargets(html: string): string[] {
  return [...html.matchAll(/<a\s[^>]*href="([^"]*)"/g)].map((match) => decodeEntities(match[1]!));
}

/** The text of a piece of HTML: tags dropped, entities decoded, spaces collapsed. */
export function textOf(html: string): string {
  return decodeEntities(
    html
      .replace(/<!--.*?-->/g, '')
      .replace(/<\/(td|th|li|p|div|dd|dt)>/g, ' ')
      .replace(/<[^>]*>/g, ''),
  )
    .replace(/\s+/g, ' ')
    .trim();
}

function attributesOf(source: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of source.matchAll(/([a-zA-Z-:]+)="([^"]*)"/g)) attributes[match[1]!] = decodeEntities(match[2]!);
  return attributes;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
