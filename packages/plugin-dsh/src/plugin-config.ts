import Schema from 'schemastery';
import { PUBLISHED_BACKENDS } from './published-backends.js';

/** The plugin's configuration, written by the operator in the harness's config: the model sets none of it. */
export interface PluginConfig {
  project?: string;
  backend?: string;
  model?: string;
  source?: string;
  maxTasks?: number;
  maxSessions?: number;
  editBudget?: number;
  timeoutMs: number;
  passVariables: string[];
  autoAdopt: boolean;
  unscheduleAll: boolean;
}

/**
 * The Schemastery schema of {@link PluginConfig}. The first six are defaults for the tools that take
 * the same option, and only for them: `maxTasks` reaches `skillopt_run`, never `skillopt_status`.
 */
export const Config: Schema<PluginConfig> = Schema.object({
  project: Schema.string().description('The project folder of the nights, when a tool call names none (default: the shell’s working folder).'),
  backend: Schema.union(PUBLISHED_BACKENDS).description('The backend of the nights, when a tool call names none (default: sim, the simulated model).'),
  model: Schema.string().description('The backend’s model, when a tool call names none.'),
  source: Schema.string().description('The session sources to read, comma-separated as --source takes them (default: all).'),
  maxTasks: Schema.natural().description('The most tasks a night mines.'),
  maxSessions: Schema.natural().description('The most sessions a night reads.'),
  editBudget: Schema.natural().description('The most rules one night may add, change or remove.'),
  timeoutMs: Schema.natural().default(600_000).description('How long one skillopt-sleep command may run, in milliseconds.'),
  passVariables: Schema.array(Schema.string())
    .default([])
    .description(
      'Names of environment variables of the harness given to skillopt-sleep, e.g. OPENAI_API_KEY: DeepSeek Harness keeps variables named like a key, token, secret or password from its shell commands.',
    ),
  autoAdopt: Schema.boolean()
    .default(false)
    .description('Operator only: nights started by skillopt_run and skillopt_schedule adopt what they stage at once. The model cannot set it.'),
  unscheduleAll: Schema.boolean()
    .default(false)
    .description('Operator only: give skillopt_unschedule an `all` parameter, which removes the scheduled nights of every project.'),
});
