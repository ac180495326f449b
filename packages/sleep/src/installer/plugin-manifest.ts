import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { z } from 'zod';

/**
 * `skillopt-plugin.json`, at the root of every `@skillopt/plugin-<id>` package: what its installer
 * does, as data. The mechanics (placing files, merging settings, the receipt, undoing) live once,
 * here in @skillopt/sleep; a plugin says only where its files go and which settings it adds. Paths
 * and values may hold `{{variable}}` placeholders (install-variables.ts).
 */
export const PLUGIN_MANIFEST_FORMAT = 'skillopt.plugin.v1';

const jsonPath = z.array(z.string().min(1)).min(1);

const settingSchema = z.strictObject({
  /** The JSON file the entries go into; created when missing. */
  file: z.string().min(1),
  /** Keys the installer sets: the last key of `path` is the plugin's own. */
  set: z.array(z.strictObject({ path: jsonPath, value: z.unknown() })).default([]),
  /** Elements the installer adds to the array at `path` (an equal element already there is not added twice). */
  append: z.array(z.strictObject({ path: jsonPath, value: z.unknown() })).default([]),
});

const fileSchema = z.strictObject({
  /** Relative to the package root. */
  from: z.string().min(1),
  to: z.string().min(1),
  /** Whether `{{variable}}` placeholders in the file's text are filled in (a copy the runtime reads away from the package). */
  render: z.boolean().default(false),
});

const scopeSchema = z.strictObject({
  files: z.array(fileSchema).default([]),
  settings: z.array(settingSchema).default([]),
  /** Files of an older install to move aside (kept as `<name>.skillopt-legacy.bak`), never deleted. */
  moveAside: z.array(z.string().min(1)).default([]),
  /** What the user is told after the install: where things landed and what to do next. */
  notes: z.array(z.string()).default([]),
});

const manifestSchema = z.strictObject({
  /** A note for a person reading the file. */
  $comment: z.string().optional(),
  format: z.literal(PLUGIN_MANIFEST_FORMAT),
  id: z.string().regex(/^[a-z][a-z0-9-]*$/),
  /** The runtime's name as a person says it ("Claude Code"). */
  runtime: z.string().min(1),
  /** A user-wide install; a project install when the runtime has one (`--project`). */
  scopes: z.strictObject({ user: scopeSchema, project: scopeSchema.optional() }),
});

export type PluginManifest = z.infer<typeof manifestSchema>;
export type PluginScope = 'user' | 'project';
export type PluginScopePlan = z.infer<typeof scopeSchema>;

/** The manifest of the plugin package at `packageRoot`; a missing or invalid one is a clear error. */
export async function readPluginManifest(packageRoot: string): Promise<PluginManifest> {
  const file = path.join(packageRoot, 'skillopt-plugin.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `${packageRoot} is not a SkillOpt plugin package: it has no skillopt-plugin.json (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: `${file} is not JSON: ${(error as Error).message}` });
  }
  const result = manifestSchema.safeParse(parsed);
  if (!result.success)
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `${file} is not a ${PLUGIN_MANIFEST_FORMAT} manifest: ${result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`,
    });
  return result.data;
}
