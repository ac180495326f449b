/** One web-search result as the model sees it. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface SearchRequestOptions {
  /** How many results to ask for (`search_max_num_results`); a provider may return fewer, never needs to return more. */
  maxResults: number;
  /** The rollout's signal: aborting it (the run's Ctrl-C, the item's time limit) abandons the search. */
  signal: AbortSignal;
}

/**
 * What answers the `search` tool in online mode. The built-in one is `custom-http` (a POST to the
 * configured endpoint); `createEnvironment(config, { searchProvider })` takes any other.
 *
 * A failure of the provider's infrastructure should reject with a `ProviderError` (retryable for a
 * transient one, with `attempts` set when the provider already retried): the rollout then fails as
 * infrastructure, and the trainer excludes the item instead of scoring it. A query the provider
 * cannot answer is not an error: it returns no results.
 */
export interface SearchProvider {
  /** Its name, for messages and the rollout's details. */
  readonly id: string;
  search(query: string, options: SearchRequestOptions): Promise<SearchResult[]>;
}
