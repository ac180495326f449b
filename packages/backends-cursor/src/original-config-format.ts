import type { OriginalConfigFormat } from '@skillopt/contract';
import { CURSOR_API_KEY_VARIABLE } from './provider.js';

/**
 * This package's slice of the original SkillOpt's config format: its cursor_exec target read the
 * flat `model.cursor_exec_path` and `model.cursor_exec_sandbox` (both shipped empty, meaning
 * `cursor-agent` and `enabled`), which keep their suffix as the key in `backends.cursor`.
 */
export const originalConfigFormat: OriginalConfigFormat = {
  keyFamilies: [
    {
      prefix: 'cursor_exec_',
      shippedDefaults: { path: '', sandbox: '' },
      secretVariables: { shared: CURSOR_API_KEY_VARIABLE },
    },
  ],
};
