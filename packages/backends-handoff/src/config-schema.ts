import { z } from 'zod';

/**
 * The `backends.handoff` section of a run config, strict: an unknown or misspelt key is an error.
 * There is no key of any kind: nothing is called.
 */
export const handoffBackendConfigSchema = z.strictObject({
  directory: z
    .string()
    .min(1)
    .optional()
    .describe(
      "The folder where requests wait for their answers (index.json, requests/, answers/), relative to the working directory. Default: handoff/ in the run's own folder, where its next process finds the answers: <run directory>/handoff for skillopt train (--resume reopens it); for Sleep, a folder of its state (projects/<name>-<hash>/handoff for sleep run and sleep mine, dry-runs/handoff for sleep dry-run). A command without a run folder (skillopt eval) uses skillopt-handoff in the working directory. It holds prompts and answers: keep it out of version control.",
    ),
  model: z.string().min(1).default('handoff').describe("The model id the run's ledger and summary name for the answers (whoever writes them)."),
});
export type HandoffBackendConfig = z.output<typeof handoffBackendConfigSchema>;
export type HandoffBackendConfigInput = z.input<typeof handoffBackendConfigSchema>;
