import { redactSecretText, type ToolCall, type ToolDefinition } from '@skillopt/contract';
import type { SearchProvider, SearchResult } from './search-provider.js';
import { capOutput, type ToolOutcome } from './tools.js';

/** The web-search tool of online mode: one query a call. */
export const SEARCH_TOOL: ToolDefinition = {
  name: 'search',
  description:
    'Search the web with one query. Returns numbered results, each with a title, a URL and a snippet. A turn may send only a few searches; make each query specific.',
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string', description: 'The search query, e.g. "Treasury Bulletin March 1977 federal budget deficit".' } },
    required: ['query'],
    additionalProperties: false,
  },
};

const MAX_QUERY_CHARS = 500;
/** Characters of one result's snippet the model receives; the whole output is capped like every tool's. */
const MAX_SNIPPET_CHARS = 1000;

/** What the search tool did in one rollout, for the result's details. */
export interface SearchStatistics {
  /** Queries sent to the provider. */
  searchQueries: number;
  /** Searches refused because the turn had already sent `max_queries_per_turn`; they were not sent. */
  searchesRefused: number;
  /** Results received, over every query. */
  searchResults: number;
}

export interface SearchSessionOptions {
  provider: SearchProvider;
  maxQueriesPerTurn: number;
  maxResults: number;
  maxOutputCharacters: number;
  /** Values cut out of every result before the model (and so the trajectory) sees it: the endpoint's token. */
  knownSecrets: ReadonlyArray<string | undefined>;
}

/** The search tool for one rollout: it counts queries per model turn and over the whole rollout. */
export interface SearchSession {
  /** Called before the tool calls of each model turn are run: the per-turn count starts again. */
  startTurn(): void;
  /**
   * Runs one `search` call. A bad argument or a search over the turn's limit is an error result
   * for the model; a failure of the provider rejects (the rollout fails as infrastructure).
   */
  run(call: ToolCall, signal: AbortSignal): Promise<ToolOutcome>;
  readonly statistics: Readonly<SearchStatistics>;
}

function queryOf(call: ToolCall): string | { problem: string } {
  let input = call.input;
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch {
      // reported below
    }
  }
  const query = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>).query : undefined;
  if (typeof query !== 'string' || query.trim() === '') return { problem: 'search: "query" must be a non-empty string' };
  if (query.length > MAX_QUERY_CHARS) return { problem: `search: the query is longer than ${MAX_QUERY_CHARS} characters` };
  return query.trim();
}

/** The results as numbered text: title, URL, snippet. */
export function renderSearchResults(query: string, results: readonly SearchResult[]): string {
  if (results.length === 0) return `[no results for ${JSON.stringify(query)}]`;
  const blocks = results.map((result, index) => {
    const snippet = result.snippet.length > MAX_SNIPPET_CHARS ? `${result.snippet.slice(0, MAX_SNIPPET_CHARS)} [...]` : result.snippet;
    return [`${index + 1}. ${result.title || '(no title)'}`, ...(result.url ? [`   ${result.url}`] : []), ...(snippet ? [`   ${snippet}`] : [])].join('\n');
  });
  return `[${results.length} result${results.length === 1 ? '' : 's'} for ${JSON.stringify(query)}]\n${blocks.join('\n')}`;
}

export function createSearchSession(options: SearchSessionOptions): SearchSession {
  const statistics: SearchStatistics = { searchQueries: 0, searchesRefused: 0, searchResults: 0 };
  let sentThisTurn = 0;
  return {
    statistics,
    startTurn() {
      sentThisTurn = 0;
    },
    async run(call, signal) {
      const query = queryOf(call);
      if (typeof query !== 'string') return { output: query.problem, isError: true };
      if (sentThisTurn >= options.maxQueriesPerTurn) {
        statistics.searchesRefused += 1;
        return {
          output: `search: the limit of ${options.maxQueriesPerTurn} searches per turn was reached; this query was not sent. Use the results you have, or search again in a later turn.`,
          isError: true,
        };
      }
      sentThisTurn += 1;
      statistics.searchQueries += 1;
      const results = (await options.provider.search(query, { maxResults: options.maxResults, signal })).slice(0, options.maxResults);
      statistics.searchResults += results.length;
      return { output: redactSecretText(capOutput(renderSearchResults(query, results), options.maxOutputCharacters), options.knownSecrets), isError: false };
    },
  };
}
