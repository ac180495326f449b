import type { PluginContext, ToolDefinition } from './host-services.js';
import { Config, type PluginConfig } from './plugin-config.js';
import { shellCommandLine } from './shell-words.js';
import { runThroughShell } from './shell-run.js';
import { sleepBinPath } from './sleep-bin.js';
import { sleepTools } from './sleep-tools.js';
import { optionWords } from './tool-command.js';
import { OUTCOME_SCHEMA, renderOutcome, type SleepToolOutcome, sleepToolOutcome } from './tool-outcome.js';
import { parametersSchema, toolParameters } from './tool-parameters.js';

/**
 * `@skillopt/plugin-dsh`: SkillOpt-Sleep as a Cordis plugin of DeepSeek Harness. Named exports only,
 * as Cordis loaders read a plugin module: `name`, `inject`, `Config` and `apply`.
 */
export const name = 'skillopt';

/** The host's tool registry and shell executor: the plugin applies once both are there. */
export const inject = ['tools', 'shell'];

export { Config };

/** The variables of the harness's environment the operator passes on, those that are set. */
function passedVariables(config: PluginConfig): Record<string, string> | undefined {
  const entries = config.passVariables.flatMap((variable) => {
    const value = process.env[variable];
    return value === undefined ? [] : [[variable, value] as const];
  });
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

/**
 * Registers the seven `skillopt_*` tools. Each runs `node <skillopt-sleep bin> <action> <options> --json`
 * through the host's shell, every word quoted, with the options the call gives and the config's
 * defaults for the options that tool declares.
 */
export function apply(ctx: PluginContext, config: PluginConfig): void {
  const bin = sleepBinPath();
  for (const tool of sleepTools(config)) {
    const parameters = toolParameters(tool);
    const definition: ToolDefinition = {
      name: tool.name,
      description: tool.description,
      parameters: parametersSchema(parameters),
      output: { schema: OUTCOME_SCHEMA, render: (_given, value) => [{ type: 'text', text: renderOutcome(value as SleepToolOutcome) }] },
      async execute(given, call) {
        const words = ['node', bin, tool.action, ...optionWords(tool, parameters, config, given), '--json'];
        const environment = passedVariables(config);
        const run = await runThroughShell(ctx.shell, {
          command: shellCommandLine(words),
          timeoutMs: config.timeoutMs,
          ...(call?.signal === undefined ? {} : { signal: call.signal }),
          ...(environment === undefined ? {} : { env: environment }),
        });
        return sleepToolOutcome(tool.name, run);
      },
    };
    ctx.tools.register(definition);
  }
}

export type { PluginConfig } from './plugin-config.js';
export type { SleepToolOutcome } from './tool-outcome.js';
export type {
  CollectedOutput,
  JsonSchema,
  PluginContext,
  ShellRequest,
  ShellRunResult,
  ShellService,
  ShellSpec,
  TextContent,
  ToolCall,
  ToolDefinition,
  ToolsService,
} from './host-services.js';
