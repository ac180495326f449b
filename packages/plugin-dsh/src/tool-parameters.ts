import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { type SleepOption, sleepActionOptions } from '@skillopt/sleep/commands';
import type { ValueKind } from './argument-checks.js';
import type { JsonSchema } from './host-services.js';
import { PUBLISHED_BACKENDS } from './published-backends.js';
import type { SleepTool } from './sleep-tools.js';

/** One parameter of a tool, bound to the option of `skillopt-sleep` it gives. */
export interface ToolParameter {
  /** The option's name with underscores, plural when it may be repeated: `max_tasks`, `skills`. */
  name: string;
  option: string;
  definition: SleepOption;
  value?: ValueKind;
}

/** The parameter name of an option: derived, so it follows Sleep's own definitions and never drifts from them. */
function parameterName(option: string, definition: SleepOption): string {
  return `${option.replaceAll('-', '_')}${definition.multiple ? 's' : ''}`;
}

function misdeclared(tool: SleepTool, problem: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.internal, category: 'internal', message: `${tool.name}: ${problem}.` });
}

/**
 * A tool's parameters, each read from the definition of its action's option: a tool can declare no
 * option its action does not have, and a string option must say what its value may be.
 */
export function toolParameters(tool: SleepTool): ToolParameter[] {
  const options = sleepActionOptions(tool.action);
  return tool.options.map(({ option, value }) => {
    const definition = options[option];
    if (definition === undefined) throw misdeclared(tool, `skillopt-sleep ${tool.action} has no --${option}`);
    if ((definition.type === 'string') !== (value !== undefined))
      throw misdeclared(
        tool,
        `--${option} is a ${definition.type} option: ${definition.type === 'string' ? 'say what its value may be' : 'it takes no value'}`,
      );
    return { name: parameterName(option, definition), option, definition, ...(value === undefined ? {} : { value }) };
  });
}

function valueSchema(parameter: ToolParameter): JsonSchema {
  if (parameter.value === undefined) return { type: 'boolean' };
  if (parameter.value.kind === 'integer') return { type: 'integer' };
  if (parameter.value.kind === 'backend') return { type: 'string', enum: [...PUBLISHED_BACKENDS] };
  return { type: 'string' };
}

/** The JSON Schema of a tool's arguments: its parameters only, nothing else accepted. */
export function parametersSchema(parameters: readonly ToolParameter[]): JsonSchema & { type: 'object' } {
  const properties: Record<string, JsonSchema> = {};
  for (const parameter of parameters) {
    const value = valueSchema(parameter);
    properties[parameter.name] = parameter.definition.multiple
      ? { type: 'array', items: value, description: parameter.definition.description }
      : { ...value, description: parameter.definition.description };
  }
  return { type: 'object', properties, additionalProperties: false };
}
