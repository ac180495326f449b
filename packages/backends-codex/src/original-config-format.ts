import type { OriginalConfigFormat } from '@skillopt/contract';
import { CODEX_API_KEY_VARIABLE } from './provider.js';

/**
 * This package's slice of the original SkillOpt's config format. The original's codex_exec (both
 * as the optimizer's chat model and as the exec target) read flat `model.codex_exec_*` keys, and
 * core's name map already turns `codex_path`, `codex_cli_bin`, `codex_bin`, `sandbox` and
 * `codex_sandbox` into them. Each keeps its suffix as the key in `backends.codex`: `path`,
 * `sandbox`, `reasoning_effort` (`none` meaning no override), `approval_policy`,
 * `network_access`, `web_search`, string spellings of booleans included.
 */
export const originalConfigFormat: OriginalConfigFormat = {
  keyFamilies: [
    {
      prefix: 'codex_exec_',
      retired: {
        profile: 'every run has a fresh CODEX_HOME, so no profile file is there to layer; put its settings in backends.codex.config_overrides',
        use_sdk: 'this package always drives the Codex CLI (codex exec --json); there is no Python SDK path',
        full_auto: 'the original had already retired it; backends.codex.sandbox says what the agent may do',
      },
      secretVariables: { shared: CODEX_API_KEY_VARIABLE },
    },
  ],
};
