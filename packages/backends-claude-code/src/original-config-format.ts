import type { OriginalConfigFormat } from '@skillopt/contract';
import { ANTHROPIC_API_KEY_VARIABLE } from './provider.js';

/**
 * This package's slice of the original SkillOpt's config: `claude_code_exec` (the harness) and
 * `claude_chat` (the CLI as a chat model) both land here; the flat `model.claude_code_exec_*` keys
 * keep their suffix as the key in `backends.claude-code`.
 */
export const originalConfigFormat: OriginalConfigFormat = {
  keyFamilies: [
    {
      prefix: 'claude_code_exec_',
      retired: {
        use_sdk: 'there is no Agent SDK mode here: every run starts the Claude Code CLI',
        profile: "the original's profile line has no equivalent; put what it said into the skill",
      },
      shippedDefaults: { path: 'claude', profile: '', use_sdk: 'auto', effort: 'medium', max_thinking_tokens: '16384' },
      secretVariables: {
        shared: ANTHROPIC_API_KEY_VARIABLE,
        target: `TARGET_${ANTHROPIC_API_KEY_VARIABLE}`,
        optimizer: `OPTIMIZER_${ANTHROPIC_API_KEY_VARIABLE}`,
      },
    },
  ],
};
