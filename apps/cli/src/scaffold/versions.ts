import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The dependency ranges a scaffolded env package declares. */
export interface ScaffoldVersions {
  /** `@skillopt/contract`, e.g. `^0.1.0`. */
  contract: string;
  /** `@skillopt/env-kit`, e.g. `^0.1.0`. */
  envKit: string;
  /** `zod`, e.g. `^4.6.7`. */
  zod: string;
  /** `jest`, pinned exactly to the version this repository's own tests run on (docs/toolchain.md). */
  jest: string;
}

/** What a scaffold declares when the installed packages cannot be read. */
const DEFAULT_SCAFFOLD_VERSIONS: Readonly<ScaffoldVersions> = {
  contract: '^0.1.0',
  envKit: '^0.1.0',
  zod: '^4.6.7',
  jest: '30.5.2',
};

/** The version of `packageName` as resolved from the package.json at `anchor`, or undefined. */
function installedVersion(anchor: string, packageName: string): string | undefined {
  try {
    const manifestFile = createRequire(anchor).resolve(`${packageName}/package.json`);
    const version = (JSON.parse(readFileSync(manifestFile, 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' && /^\d+\.\d+\.\d+/.test(version) ? version : undefined;
  } catch {
    return undefined;
  }
}

function manifestFileOf(anchor: string, packageName: string): string | undefined {
  try {
    return createRequire(anchor).resolve(`${packageName}/package.json`);
  } catch {
    return undefined;
  }
}

/**
 * The ranges matching the packages this CLI runs with: `^<installed version>` of the contract, the
 * env kit and zod as installed beside the CLI (env-kit is core's dependency, so it is also looked
 * for from core's location, which is where pnpm puts it). Anything unreadable keeps its default.
 */
export function detectScaffoldVersions(cliRoot: string): ScaffoldVersions {
  const anchor = path.join(cliRoot, 'package.json');
  const core = manifestFileOf(anchor, '@skillopt/core');
  const caret = (version: string | undefined, fallback: string) => (version === undefined ? fallback : `^${version}`);
  return {
    contract: caret(installedVersion(anchor, '@skillopt/contract'), DEFAULT_SCAFFOLD_VERSIONS.contract),
    envKit: caret(
      installedVersion(anchor, '@skillopt/env-kit') ?? (core === undefined ? undefined : installedVersion(core, '@skillopt/env-kit')),
      DEFAULT_SCAFFOLD_VERSIONS.envKit,
    ),
    zod: caret(installedVersion(anchor, 'zod'), DEFAULT_SCAFFOLD_VERSIONS.zod),
    jest: DEFAULT_SCAFFOLD_VERSIONS.jest,
  };
}
