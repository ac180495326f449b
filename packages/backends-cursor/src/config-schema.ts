import { z } from 'zod';

const wholeNumber = (minimum: number) => z.int().min(minimum);

export const SANDBOX_SETTINGS = ['enabled', 'disabled'] as const;
export type SandboxSetting = (typeof SANDBOX_SETTINGS)[number];

export const SKILL_PLACEMENTS = ['agents-md', 'cursor-rules'] as const;
export type SkillPlacement = (typeof SKILL_PLACEMENTS)[number];

/** The settings a role section may override; a role section only says what differs from the top level. */
const overridableShape = {
  timeout_ms: wholeNumber(1)
    .optional()
    .describe('Milliseconds one chat call (one `cursor-agent -p`) may take. Default 240000. Agent runs take the time limit the env gives them.'),
  max_retries: wholeNumber(0)
    .optional()
    .describe(
      'Chat calls only: how many more times a call whose run failed for a transient reason (a time-out, no usable result) is made. Default 1, as the original. A failed agent run is retried by core (run.retries).',
    ),
};

/** A role's own section (`backends.cursor.target`, `.optimizer`, `.judge`). */
export const cursorRoleConfigSchema = z.strictObject({
  model: z.string().min(1).optional().describe("This role's model when the run config names none (model.target / model.optimizer win). Default composer-2.5."),
  ...overridableShape,
});
export type CursorRoleConfig = z.output<typeof cursorRoleConfigSchema>;

/**
 * The `backends.cursor` section of a run config, strict: an unknown or misspelt key is an error.
 * There is deliberately no `api_key`: the key comes from the environment only.
 */
export const cursorBackendConfigSchema = z.strictObject({
  ...overridableShape,
  timeout_ms: overridableShape.timeout_ms.default(240_000),
  max_retries: overridableShape.max_retries.default(1),
  path: z
    .string()
    .min(1)
    .optional()
    .describe('The Cursor agent CLI to start. Default: CURSOR_EXEC_PATH or SKILLOPT_SLEEP_CURSOR_PATH when set, else `cursor-agent` on the PATH.'),
  sandbox: z
    .enum(SANDBOX_SETTINGS)
    .default('enabled')
    .describe(
      "Cursor's sandbox for the agent's commands (`--sandbox`). enabled (default): a run that may edit its workspace writes inside it only. disabled: no sandbox, for an already isolated machine; then no run may edit files (a write request is refused), as the original required.",
    ),
  skill_placement: z
    .enum(SKILL_PLACEMENTS)
    .default('agents-md')
    .describe(
      'Where the skill is installed in the workspace. agents-md (default): AGENTS.md at its root, which Cursor reads as project instructions. cursor-rules: .cursor/rules/<skill_name>.mdc, a project rule applied to every request (alwaysApply).',
    ),
  skill_name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and hyphens, e.g. skillopt-target')
    .default('skillopt-target')
    .describe("The rule's file name under cursor-rules. Default skillopt-target."),
  max_concurrency: wholeNumber(1).optional().describe('Cursor processes at once for this backend, across roles. Default 2: each is a heavy process.'),
  target: cursorRoleConfigSchema.optional().describe('Settings of the target only; they override the top level.'),
  optimizer: cursorRoleConfigSchema.optional().describe('Settings of the optimizer only; they override the top level.'),
  judge: cursorRoleConfigSchema.optional().describe('Settings of the judge only; they override the top level.'),
});

export type CursorBackendConfig = z.output<typeof cursorBackendConfigSchema>;
export type CursorBackendConfigInput = z.input<typeof cursorBackendConfigSchema>;
