import type { OriginalConfigFormat } from '@skillopt/contract';

/**
 * This package's slice of the original SkillOpt's config format. The original trained with no Pi
 * target: only its sleep engine drove Pi (`--backend pi`, also `pi_cli`, `pi_coding_agent`,
 * `pi-coding-agent`, which core's name map sends here), with no flat `model.*` keys of its own.
 * Its invocation is what this package's chat calls keep: `-p`, no session, no tools, skills,
 * context files, extensions, prompt templates or themes, the prompt on stdin and PI_OFFLINE set;
 * its `pi_path` is `backends.pi.path`.
 */
export const originalConfigFormat: OriginalConfigFormat = {};
