/**
 * The version of each contract interface an implementation was written against.
 *
 * Policy (docs/contract.md, "Versioning"): adding an optional field or a new event type keeps the
 * version; removing or renaming anything, tightening a type, or changing what a field means bumps it.
 * Core names the versions it accepts and rejects any other with a clear error, so a package written
 * against an older contract fails at load time rather than mid-run.
 */
export const SPECIFICATION_VERSION = 'v1' as const;

export type SpecificationVersion = typeof SPECIFICATION_VERSION;

/** Every version this release of the contract understands, newest first. */
export const SUPPORTED_SPECIFICATION_VERSIONS: readonly string[] = [SPECIFICATION_VERSION];
