import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { checkValue } from './argument-checks.js';
import type { PluginConfig } from './plugin-config.js';
import type { SleepTool } from './sleep-tools.js';
import type { ToolParameter } from './tool-parameters.js';

/** The config keys that are defaults for an option, by the option they fill. */
const CONFIG_DEFAULTS: Readonly<Record<string, keyof PluginConfig>> = {
  project: 'project',
  backend: 'backend',
  model: 'model',
  source: 'source',
  'max-tasks': 'maxTasks',
  'max-sessions': 'maxSessions',
  'edit-budget': 'editBudget',
};

function refused(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message });
}

/** The values a call gives for one parameter, each checked: none when it is absent, `false` or an empty list. */
function givenValues(parameter: ToolParameter, given: unknown): unknown[] {
  if (given === undefined || given === false) return [];
  if (parameter.value === undefined) {
    if (given !== true) throw refused(`${parameter.name} must be true or false.`);
    return [true];
  }
  const values = parameter.definition.multiple ? given : [given];
  if (!Array.isArray(values)) throw refused(`${parameter.name} must be a list.`);
  for (const value of values) checkValue(value, parameter.value, parameter.name);
  return values;
}

/**
 * The words after the action for one call: the options the call gives, then the operator's config
 * defaults for the options this tool declares and the call left out (never for an option the tool
 * does not declare, nor for one whose alternative the call chose), then the operator's own words.
 * Everything is checked before anything runs; a refusal is a user error naming the parameter.
 */
export function optionWords(tool: SleepTool, parameters: readonly ToolParameter[], config: PluginConfig, given: unknown): string[] {
  const argumentsGiven = given ?? {};
  if (typeof argumentsGiven !== 'object' || Array.isArray(argumentsGiven)) throw refused(`${tool.name} takes an object of named parameters.`);
  const known = new Set(parameters.map((parameter) => parameter.name));
  const unknown = Object.keys(argumentsGiven).filter((key) => !known.has(key));
  if (unknown.length > 0) throw refused(`${tool.name} has no parameter ${unknown.join(', ')}; its parameters are ${[...known].join(', ') || 'none'}.`);

  const values = new Map(parameters.map((parameter) => [parameter, givenValues(parameter, (argumentsGiven as Record<string, unknown>)[parameter.name])]));
  const givenOptions = new Set(parameters.filter((parameter) => (values.get(parameter) ?? []).length > 0).map((parameter) => parameter.option));
  for (const group of tool.exclusive) {
    const chosen = parameters.filter((parameter) => group.includes(parameter.option) && givenOptions.has(parameter.option));
    if (chosen.length > 1) throw refused(`${tool.name} takes at most one of ${chosen.map((parameter) => parameter.name).join(', ')}.`);
  }

  const words: string[] = [];
  for (const parameter of parameters) {
    let parameterValues = values.get(parameter) ?? [];
    const configKey = CONFIG_DEFAULTS[parameter.option];
    const alternativeChosen = tool.exclusive.some((group) => group.includes(parameter.option) && group.some((option) => givenOptions.has(option)));
    if (parameterValues.length === 0 && parameter.value !== undefined && configKey !== undefined && config[configKey] !== undefined && !alternativeChosen) {
      checkValue(config[configKey], parameter.value, `the plugin's ${configKey} setting`);
      parameterValues = [config[configKey]];
    }
    for (const value of parameterValues) words.push(`--${parameter.option}`, ...(value === true ? [] : [String(value)]));
  }
  return [...words, ...(tool.operatorWords ?? [])];
}
