import path from 'node:path';
import { ERROR_CODES, SkillOptError, type PackageManifest } from '@skillopt/contract';
import type { SkillOptConfig } from './core-config-schema.js';
import { TRAINER_ENV_KEYS } from './core-config-schema.js';
import { schemaKeys } from './schema-introspection.js';

/**
 * The part of a validated `env` section that belongs to the env package, parsed by the package's
 * own schema: what `createEnvironment(config)` receives. Keys only the trainer reads (`name`,
 * `skill_init`, `out_root`, `rollout_workers`) are never passed; of core's shared keys (the split
 * settings, `exec_timeout`) only those the package declares are.
 */
export function environmentSectionFor(config: Pick<SkillOptConfig, 'env'>, manifest: PackageManifest): unknown {
  const declared = schemaKeys(manifest.configSchema);
  const section: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config.env)) {
    if (TRAINER_ENV_KEYS.has(key)) continue;
    if (declared === undefined || declared.includes(key)) section[key] = value;
  }
  return parseWithPackageSchema(manifest, section, 'env');
}

/**
 * The `backends.<id>` section of a backend package, parsed by its schema: what `createBackend(config)`
 * receives. Given the run's folder for files kept between its processes, a package that names a
 * key for its own (`filesDirectoryKey`) and whose section leaves it unset gets `<folder>/<id>` there.
 */
export function backendSectionFor(config: Pick<SkillOptConfig, 'backends'>, manifest: PackageManifest, filesDirectory?: string): unknown {
  const section = config.backends[manifest.id] ?? {};
  const key = manifest.filesDirectoryKey;
  const withFolder =
    key !== undefined && filesDirectory !== undefined && section[key] === undefined ? { ...section, [key]: path.join(filesDirectory, manifest.id) } : section;
  return parseWithPackageSchema(manifest, withFolder, `backends.${manifest.id}`);
}

function parseWithPackageSchema(manifest: PackageManifest, section: unknown, where: string): unknown {
  const parsed = manifest.configSchema.safeParse(section);
  if (!parsed.success)
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `the ${manifest.kind} package "${manifest.id}" rejected its settings in ${where}: ${parsed.error instanceof Error ? parsed.error.message : String(parsed.error)}`,
    });
  return parsed.data;
}
