import type { SearchResult } from './search-provider.js';

/** The original's endpoints answer with a list of results or an object holding one under one of these keys. */
const RESULT_LIST_KEYS = ['results', 'items', 'data'] as const;
const TITLE_KEYS = ['title', 'name'] as const;
const URL_KEYS = ['url', 'link', 'href'] as const;
const SNIPPET_KEYS = ['snippet', 'content', 'text', 'body', 'description'] as const;

function firstText(record: Record<string, unknown>, keys: readonly string[]): string {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return '';
}

/** The list of results in a response body, or undefined when the body is not one of the accepted shapes. */
function resultList(body: unknown): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const key of RESULT_LIST_KEYS) if (Array.isArray(record[key])) return record[key] as unknown[];
  return undefined;
}

/**
 * The results of a search endpoint's JSON body: a JSON array of results, or an object with the
 * array under `results` (or `items`, `data`). Each result is an object with a title (`title` or
 * `name`), a URL (`url`, `link` or `href`) and a text (`snippet`, `content`, `text`, `body` or
 * `description`); a bare string is a snippet on its own. Entries with none of these are dropped.
 * Returns a description of the problem instead when the body has no result list at all.
 */
export function parseSearchResponse(body: unknown): { results: SearchResult[] } | { problem: string } {
  const list = resultList(body);
  if (list === undefined) {
    const shape = Array.isArray(body)
      ? 'array'
      : body === null
        ? 'null'
        : typeof body === 'object'
          ? `an object with keys ${
              Object.keys(body as object)
                .slice(0, 8)
                .join(', ') || '(none)'
            }`
          : typeof body;
    return { problem: `expected a JSON array of results or an object with a "results" array, got ${shape}` };
  }
  const results: SearchResult[] = [];
  for (const entry of list) {
    if (typeof entry === 'string') {
      if (entry.trim() !== '') results.push({ title: '', url: '', snippet: entry.trim() });
      continue;
    }
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) continue;
    const record = entry as Record<string, unknown>;
    const result = { title: firstText(record, TITLE_KEYS), url: firstText(record, URL_KEYS), snippet: firstText(record, SNIPPET_KEYS) };
    if (result.title !== '' || result.url !== '' || result.snippet !== '') results.push(result);
  }
  return { results };
}
