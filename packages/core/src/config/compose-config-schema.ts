import { z } from 'zod';
import type { PackageManifest } from '@skillopt/contract';
import { isConfigMapping, type ConfigTree } from './config-tree.js';
import {
  CONFIG_SECTIONS,
  coreConfigSchema,
  coreConfigShape,
  envCoreShape,
  envSectionSchema,
  TRAINER_ENV_KEYS,
  type SkillOptConfig,
} from './core-config-schema.js';
import { schemaAtPath, schemaKeys } from './schema-introspection.js';

export interface ComposeConfigSchemaOptions {
  /** The manifest of the run's env package, when it is installed. */
  environment?: PackageManifest | undefined;
  /** The manifests of the installed backend packages, by the id their section uses. */
  backends?: Readonly<Record<string, PackageManifest>> | undefined;
}

/**
 * The run's configuration schema: core's own plus the installed packages'. Kept as an object
 * rather than a bare zod schema because validation needs more than `parse` — which keys each
 * level knows (for suggestions) and which sections no package will validate (for warnings).
 */
export interface ComposedConfigSchema {
  /** Parses a whole configuration, filling defaults, including the packages' sections. */
  readonly schema: z.ZodType<SkillOptConfig>;
  readonly environment: PackageManifest | undefined;
  readonly backends: Readonly<Record<string, PackageManifest>>;
  /** The keys valid at a level of the config, or undefined where any key goes (or nobody knows). */
  knownKeys(path: readonly string[]): string[] | undefined;
  /** The schema of the key at a path, where it is known (for enum suggestions). */
  schemaAt(path: readonly string[]): unknown;
}

/** One problem a package schema reported, with its path inside the package's section. */
export interface PackageIssue {
  path: PropertyKey[];
  message: string;
  code?: string;
  keys?: string[];
  expected?: string;
  values?: unknown[];
  /** Bounds of a too_small / too_big issue. */
  minimum?: number;
  maximum?: number;
  inclusive?: boolean;
  origin?: string;
}

/** What `params` of a zod issue carries when it stands for a package schema's problem. */
export interface PackageIssueParams {
  packageId: string;
  packageIssue: PackageIssue;
}

const CORE_ENV_KEYS = new Set(Object.keys(envCoreShape));

/**
 * Composes core's schema with the env package's and each backend package's. `env` holds core's
 * keys and the package's, each validated by its owner: the package schema sees only the keys it
 * declares or that core does not know. `backends.<id>` is validated by that backend's schema.
 * Sections of packages that are not given are left unvalidated; validateConfig warns about them.
 * Package schemas are structural `{safeParse}` objects, so they are called generically and their
 * errors are read duck-typed.
 */
export function composeConfigSchema(options: ComposeConfigSchemaOptions = {}): ComposedConfigSchema {
  const environment = options.environment;
  const backends = { ...(options.backends ?? {}) };

  const envSchema = z.unknown().transform((raw, context) => {
    const parsed = parseEnvSection(raw, environment);
    if ('issues' in parsed) {
      for (const issue of parsed.issues) context.addIssue(issue);
      return z.NEVER;
    }
    return parsed.data;
  });

  const backendsSchema = coreConfigShape.backends.transform((sections, context) => {
    const result: Record<string, Record<string, unknown>> = { ...sections };
    for (const [id, manifest] of Object.entries(backends)) {
      // A backend that is installed but has no section still gets its defaults.
      const parsed = parsePackageSection(manifest, sections[id] ?? {});
      if ('issues' in parsed) {
        for (const issue of parsed.issues) context.addIssue(packageZodIssue(manifest.id, { ...issue, path: [id, ...issue.path] }));
        continue;
      }
      result[id] = parsed.data;
    }
    return result;
  });

  const schema = z.strictObject({ ...coreConfigShape, env: envSchema, backends: backendsSchema }) as unknown as z.ZodType<SkillOptConfig>;

  const schemaAt = (path: readonly string[]): unknown => {
    const [section, ...rest] = path;
    if (section === 'env' && rest.length > 0 && !CORE_ENV_KEYS.has(rest[0] as string))
      return environment ? schemaAtPath(environment.configSchema, rest) : undefined;
    if (section === 'backends' && rest.length > 0) {
      const [id, ...inside] = rest;
      const manifest = id === undefined ? undefined : backends[id];
      return manifest ? schemaAtPath(manifest.configSchema, inside) : undefined;
    }
    return schemaAtPath(coreConfigSchema, path);
  };

  const knownKeys = (path: readonly string[]): string[] | undefined => {
    if (path.length === 0) return [...CONFIG_SECTIONS];
    if (path.length === 1 && path[0] === 'env') return [...new Set([...CORE_ENV_KEYS, ...((environment && schemaKeys(environment.configSchema)) ?? [])])];
    if (path.length === 1 && path[0] === 'backends') return undefined;
    return schemaKeys(schemaAt(path));
  };

  return { schema, environment, backends, knownKeys, schemaAt };
}

type ForwardedIssue = Parameters<z.core.$RefinementCtx['addIssue']>[0] & object;

/**
 * Splits `env` between its two owners and validates each part: core's keys with core's schema,
 * the rest with the env package's. Keys core shares with packages (the split settings,
 * exec_timeout, workers) also go to the package when its schema declares them — only the keys it
 * declares, and only as the user wrote them, so core's defaults never override the package's.
 */
function parseEnvSection(raw: unknown, environment: PackageManifest | undefined): { data: Record<string, unknown> } | { issues: ForwardedIssue[] } {
  if (!isConfigMapping(raw)) {
    const failed = envSectionSchema.safeParse(raw);
    return failed.success ? { data: failed.data } : { issues: failed.error.issues.map((issue) => ({ ...issue }) as ForwardedIssue) };
  }
  const declared = new Set(environment ? (schemaKeys(environment.configSchema) ?? []) : []);
  const own: ConfigTree = {};
  const theirs: ConfigTree = {};
  for (const [key, value] of Object.entries(raw)) {
    if (CORE_ENV_KEYS.has(key)) {
      own[key] = value;
      if (environment && !TRAINER_ENV_KEYS.has(key) && declared.has(key)) theirs[key] = value;
    } else if (environment) theirs[key] = value;
    else own[key] = value; // no package: core's loose object passes the key through (with a warning)
  }
  const core = envSectionSchema.safeParse(own);
  const issues: ForwardedIssue[] = core.success ? [] : core.error.issues.map((issue) => ({ ...issue }) as ForwardedIssue);
  if (!environment) return core.success ? { data: core.data } : { issues };
  const parsed = parsePackageSection(environment, theirs);
  if ('issues' in parsed) issues.push(...parsed.issues.map((issue) => packageZodIssue(environment.id, issue)));
  if (issues.length > 0 || !core.success || 'issues' in parsed) return { issues };
  return { data: { ...core.data, ...parsed.data } };
}

function parsePackageSection(manifest: PackageManifest, section: ConfigTree): { data: Record<string, unknown> } | { issues: PackageIssue[] } {
  let result: ReturnType<PackageManifest['configSchema']['safeParse']>;
  try {
    result = manifest.configSchema.safeParse(section);
  } catch (error) {
    return { issues: [{ path: [], message: `the ${manifest.kind} package "${manifest.id}" failed to check its settings: ${errorText(error)}` }] };
  }
  if (!result.success) return { issues: packageIssues(result.error) };
  if (!isConfigMapping(result.data))
    return { issues: [{ path: [], message: `the ${manifest.kind} package "${manifest.id}" turned its settings into something that is not a mapping` }] };

  // A non-strict zod object strips keys it does not know without complaint; a key that went in
  // and did not come out was not understood, and a silently ignored typo is what strictness is for.
  const known = new Set(schemaKeys(manifest.configSchema) ?? Object.keys(result.data));
  const stripped = Object.keys(section).filter((key) => !Object.hasOwn(result.data as object, key) && !known.has(key));
  if (stripped.length > 0) return { issues: [{ path: [], code: 'unrecognized_keys', keys: stripped, message: 'unknown keys' }] };
  return { data: result.data };
}

/** Reads a zod 3 or zod 4 error (or anything else) as a list of issues. */
function packageIssues(error: unknown): PackageIssue[] {
  const issues = (error as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return [{ path: [], message: errorText(error) }];
  return issues.map((raw) => {
    const issue = (raw ?? {}) as Record<string, unknown>;
    const path = Array.isArray(issue.path) ? (issue.path.filter((key) => typeof key === 'string' || typeof key === 'number') as PropertyKey[]) : [];
    const result: PackageIssue = { path, message: typeof issue.message === 'string' ? issue.message : 'invalid value' };
    if (typeof issue.code === 'string') result.code = issue.code;
    if (Array.isArray(issue.keys)) result.keys = issue.keys.map(String);
    if (typeof issue.expected === 'string') result.expected = issue.expected;
    if (Array.isArray(issue.values)) result.values = issue.values as unknown[];
    else if (Array.isArray(issue.options)) result.values = issue.options as unknown[];
    if (typeof issue.minimum === 'number') result.minimum = issue.minimum;
    if (typeof issue.maximum === 'number') result.maximum = issue.maximum;
    if (typeof issue.inclusive === 'boolean') result.inclusive = issue.inclusive;
    // zod 4 says `origin`, zod 3 says `type`.
    const origin = issue.origin ?? issue.type;
    if (typeof origin === 'string') result.origin = origin;
    return result;
  });
}

function packageZodIssue(packageId: string, issue: PackageIssue): { code: 'custom'; path: PropertyKey[]; message: string; params: PackageIssueParams } {
  return { code: 'custom', path: issue.path, message: issue.message, params: { packageId, packageIssue: issue } };
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
