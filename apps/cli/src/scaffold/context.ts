import type { ScaffoldVersions } from './versions.js';

/** Everything a template needs to know about the package being written. */
export interface ScaffoldContext {
  /** The env's short name and id: `demo-bench`. */
  name: string;
  /** Its npm package name: `skillopt-env-demo-bench`. */
  packageName: string;
  /** Dependency ranges (see versions.ts). */
  versions: ScaffoldVersions;
}

/** One file of the scaffold: a path relative to the package directory, with `/` separators. */
export interface ScaffoldFile {
  path: string;
  content: string;
}
