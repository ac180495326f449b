import { nearestName } from '@skillopt/runtime-kit';
import { z } from 'zod';

/** The search modes: the document tools alone, or the document tools plus a web-search tool. */
export const SEARCH_MODES = ['offline', 'online'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** The original's names for its search-endpoint mode, which is what `online` does here. */
const ORIGINAL_ONLINE_MODES = ['custom', 'custom_search'];
/** The original's names for the provider-hosted web-search tool, which is not ported. */
const PROVIDER_HOSTED_MODES = ['azure', 'azure_search'];

/**
 * `search_mode` as written, to the mode it means. The original's `custom`/`custom_search` are
 * `online`; its `azure`/`azure_search` and anything else are errors. The original fell back to
 * offline for an unknown value, which turned a typo into a silently different experiment.
 */
export const searchModeSchema = z.string().transform((written, context): SearchMode => {
  const value = written.trim().toLowerCase();
  if ((SEARCH_MODES as readonly string[]).includes(value)) return value as SearchMode;
  if (ORIGINAL_ONLINE_MODES.includes(value)) return 'online';
  if (PROVIDER_HOSTED_MODES.includes(value)) {
    context.issues.push({
      code: 'custom',
      input: written,
      message: `"${written}" (a model provider's hosted web-search tool) is not ported; use search_mode: online with search_api_url set to your own search endpoint, or offline`,
    });
    return z.NEVER;
  }
  const nearest = nearestName(value, [...SEARCH_MODES, ...ORIGINAL_ONLINE_MODES]);
  context.issues.push({
    code: 'custom',
    input: written,
    message: `unknown search mode "${written}"${nearest === undefined ? '' : `; did you mean "${nearest}"?`} (valid: offline, online; the original's custom_search means online)`,
  });
  return z.NEVER;
});
