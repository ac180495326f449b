import type { OriginalConfigFormat } from '@skillopt/contract';
import { COPILOT_API_KEY_VARIABLE } from './provider.js';

/**
 * This package's slice of the original SkillOpt's config format. The original's copilot_exec (the
 * exec target) and copilot_chat (the CLI as a chat model) both land here. Their flat keys:
 * `model.copilot_exec_path` and `model.copilot_exec_allow_all_tools` keep their suffix as the key
 * in `backends.copilot`; `copilot_chat_optimizer_model` / `copilot_chat_target_model` become the
 * role sections' `model`; the original's COPILOT_HOME setting and its chat timeout in seconds are
 * retired with what to use instead.
 */
export const originalConfigFormat: OriginalConfigFormat = {
  keyFamilies: [
    {
      prefix: 'copilot_exec_',
      retired: {
        home: 'every run has a fresh COPILOT_HOME of its own, removed afterwards, so no run reads the state of another or of the user',
      },
      shippedDefaults: { path: 'copilot', home: '', allow_all_tools: false },
      secretVariables: { shared: COPILOT_API_KEY_VARIABLE },
    },
    {
      prefix: 'copilot_chat_',
      renames: { optimizer_model: 'optimizer.model', target_model: 'target.model' },
      retired: {
        timeout: 'it was in seconds; set backends.copilot.timeout_ms (milliseconds) for a chat call, default 600000',
      },
      shippedDefaults: { optimizer_model: '', target_model: '', timeout: 600 },
      secretVariables: { shared: COPILOT_API_KEY_VARIABLE },
    },
  ],
};
