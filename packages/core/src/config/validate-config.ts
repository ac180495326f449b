import type { z } from 'zod';
import { formatConfigPath, getAtPath, isConfigMapping, type ConfigTree } from './config-tree.js';
import { configInvalid } from './config-invalid-error.js';
import { configWarning, type ConfigWarning } from './config-warning.js';
import { composeConfigSchema, type ComposedConfigSchema, type PackageIssue, type PackageIssueParams } from './compose-config-schema.js';
import { envCoreShape, type SkillOptConfig } from './core-config-schema.js';
import { nearestWord, suggestKey, type KeysBySection } from './did-you-mean.js';
import { dropConfigSecrets } from './drop-config-secrets.js';
import { enumChoices } from './schema-introspection.js';

/** One thing wrong with a configuration, at its dotted key. */
export interface ConfigProblem {
  path: string;
  message: string;
  /** The key (or value) the user probably meant. */
  suggestion?: string;
  /** Where the offending value came from (a file, an override), when the caller knows. */
  source?: string;
}

export interface ValidatedConfig {
  config: SkillOptConfig;
  warnings: ConfigWarning[];
}

export interface ValidateConfigOptions {
  /** Says where the value at a dotted key was set, to point each problem at its file. */
  describeSource?: (path: string) => string | undefined;
}

/**
 * Validates a whole configuration against the composed schema and fills in every default.
 * Secrets are dropped first (with warnings). On failure it throws one `config-invalid` error that
 * lists every problem at its dotted key — not just the first — with a suggestion for a misspelt
 * key (also across sections: `train.learning_rate` → `optimizer.learning_rate`) and "expected …,
 * got …" for a wrong value.
 */
export function validateConfig(raw: unknown, schema: ComposedConfigSchema = composeConfigSchema(), options: ValidateConfigOptions = {}): ValidatedConfig {
  if (!isConfigMapping(raw)) throw configInvalid(`a configuration must be a mapping of sections, got ${describeValue(raw)}`);
  const { config: withoutSecrets, warnings } = dropConfigSecrets(raw, schema.backends);
  warnings.push(...unvalidatedSectionWarnings(withoutSecrets, schema));

  const parsed = schema.schema.safeParse(withoutSecrets);
  if (parsed.success) return { config: parsed.data, warnings };

  const problems = parsed.error.issues.flatMap((issue) => describeIssue(issue, withoutSecrets, schema));
  for (const problem of problems) {
    const source = options.describeSource?.(problem.path);
    if (source) problem.source = source;
  }
  throw configInvalid(formatProblems(problems), { problems });
}

/** The message of a `config-invalid` error listing problems, one per line. */
export function formatProblems(problems: readonly ConfigProblem[]): string {
  const lines = problems.map((problem) => {
    const hint = problem.suggestion ? ` — did you mean ${problem.suggestion}?` : '';
    const where = problem.source ? ` (${problem.source})` : '';
    return `  - ${problem.path || '(top level)'}: ${problem.message}${hint}${where}`;
  });
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  return `Invalid configuration (${count}):\n${lines.join('\n')}`;
}

function unvalidatedSectionWarnings(config: ConfigTree, schema: ComposedConfigSchema): ConfigWarning[] {
  const warnings: ConfigWarning[] = [];
  const env = config.env;
  if (!schema.environment && isConfigMapping(env)) {
    const coreKeys = new Set(Object.keys(envCoreShape));
    const foreign = Object.keys(env).filter((key) => !coreKeys.has(key));
    if (foreign.length > 0) {
      const name = typeof env.name === 'string' ? ` "${env.name}"` : '';
      const described = foreign.map((key) => {
        const near = nearestWord(key, coreKeys);
        return near ? `${key} (or did you mean ${near.word}?)` : key;
      });
      warnings.push(
        configWarning(
          'section-not-validated',
          `env: the env package${name} is not installed, so its keys ${described.join(', ')} were passed through unvalidated`,
          'env',
        ),
      );
    }
  }
  const backends = config.backends;
  if (isConfigMapping(backends))
    for (const id of Object.keys(backends))
      if (!schema.backends[id])
        warnings.push(
          configWarning(
            'section-not-validated',
            `backends.${id}: the backend package "${id}" is not installed, so its section was passed through unvalidated`,
            `backends.${id}`,
          ),
        );
  return warnings;
}

function otherSections(schema: ComposedConfigSchema): KeysBySection {
  const sections = new Map<string, readonly string[]>();
  for (const section of schema.knownKeys([]) ?? []) {
    if (section === 'backends') continue;
    const keys = schema.knownKeys([section]);
    if (keys) sections.set(section, keys);
  }
  return sections;
}

function describeIssue(issue: z.core.$ZodIssue, config: ConfigTree, schema: ComposedConfigSchema): ConfigProblem[] {
  const params = (issue as { params?: Partial<PackageIssueParams> }).params;
  if (issue.code === 'custom' && params?.packageIssue) {
    // The package reported a path inside its own section; ours is the section's path plus that.
    const inner = params.packageIssue;
    const prefix = issue.path.slice(0, issue.path.length - inner.path.length);
    return describeGeneric({ ...inner, path: [...prefix, ...inner.path] }, config, schema);
  }
  const generic: PackageIssue = { path: [...issue.path], message: issue.message, code: issue.code };
  if (issue.code === 'unrecognized_keys') generic.keys = issue.keys;
  if (issue.code === 'invalid_type') generic.expected = issue.expected;
  if (issue.code === 'invalid_value') generic.values = issue.values;
  if (issue.code === 'too_small' || issue.code === 'too_big') {
    const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
    if (typeof bound === 'number') generic[issue.code === 'too_small' ? 'minimum' : 'maximum'] = bound;
    if (issue.inclusive !== undefined) generic.inclusive = issue.inclusive;
    generic.origin = issue.origin;
  }
  return describeGeneric(generic, config, schema);
}

function describeGeneric(issue: PackageIssue, config: ConfigTree, schema: ComposedConfigSchema): ConfigProblem[] {
  const path = issue.path.map(String);
  const dotted = formatConfigPath(issue.path);
  const value = getAtPath(config, path);

  if (issue.code === 'unrecognized_keys' && issue.keys) {
    const siblings = schema.knownKeys(path) ?? [];
    return issue.keys.map((key) => {
      const suggestion = suggestKey([...path, key], siblings, otherSections(schema));
      const problem: ConfigProblem = { path: formatConfigPath([...issue.path, key]), message: 'unknown key' };
      if (suggestion) problem.suggestion = suggestion;
      else if (siblings.length > 0) problem.message = `unknown key; the keys here are ${siblings.join(', ')}`;
      return problem;
    });
  }

  const bound = issue.code === 'too_small' ? issue.minimum : issue.code === 'too_big' ? issue.maximum : undefined;
  if (bound !== undefined && typeof value === 'number' && (issue.origin === 'number' || issue.origin === undefined)) {
    const inclusive = issue.inclusive ?? true;
    const relation = issue.code === 'too_small' ? (inclusive ? 'at least' : 'greater than') : inclusive ? 'at most' : 'less than';
    return [{ path: dotted, message: `must be ${relation} ${bound}, got ${value}` }];
  }

  if (value === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_union'))
    return [{ path: dotted, message: `required key is missing (expected ${describeExpected(issue.expected)})` }];

  if (issue.code === 'invalid_type') return [{ path: dotted, message: `expected ${describeExpected(issue.expected)}, got ${describeValue(value)}` }];

  if (issue.code === 'invalid_value' || (issue.code === 'invalid_enum_value' && issue.values)) {
    const choices = (issue.values ?? enumChoices(schema.schemaAt(path)) ?? []).map(String);
    const problem: ConfigProblem = { path: dotted, message: `expected one of ${choices.join(', ')}, got ${describeValue(value)}` };
    const near = typeof value === 'string' ? nearestWord(value, choices) : undefined;
    if (near) problem.suggestion = near.word;
    return [problem];
  }

  // A custom check's message is a whole sentence of ours that already names the value.
  const got = value === undefined || issue.code === undefined || issue.code === 'custom' ? '' : `, got ${describeValue(value)}`;
  return [{ path: dotted, message: `${issue.message}${got}` }];
}

function describeExpected(expected: string | undefined): string {
  switch (expected) {
    case 'number':
      return 'a number';
    case 'int':
      return 'a whole number';
    case 'string':
      return 'text';
    case 'boolean':
      return 'true or false';
    case 'object':
    case 'record':
    case 'map':
      return 'a mapping';
    case 'array':
      return 'a list';
    case undefined:
      return 'a value';
    default:
      return expected;
  }
}

/** A value as a message shows it: its kind and, for scalars, the value itself. */
function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return `the text ${JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value)}`;
  if (typeof value === 'number') return Number.isInteger(value) ? `the whole number ${value}` : `the number ${value}`;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return 'a list';
  if (isConfigMapping(value)) return 'a mapping';
  return typeof value;
}
