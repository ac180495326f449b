/**
 * Each interface of the contract has its own specification version, written into its type's name
 * (`ChatModelV1`, `AgentRunnerV1`, `EnvironmentV1`, `BackendV1`, `PackageManifestV1`) and carried
 * by every implementation as `specificationVersion`. A v2 of one interface can then ship beside its
 * v1 — core adapts or refuses each version it is handed — while the others stay where they are.
 *
 * Policy (docs/contract.md, "Evolution"): adding an optional field, an optional method, an event
 * type or an error code keeps an interface's version; removing or renaming anything, making an
 * optional field required, narrowing a type, or changing what a field means is a new version.
 */
export const CONTRACT_INTERFACES = ['chat-model', 'agent-runner', 'environment', 'backend', 'package-manifest'] as const;
export type ContractInterface = (typeof CONTRACT_INTERFACES)[number];

/** The specification versions this release of the contract defines, per interface, newest first. */
export const SUPPORTED_SPECIFICATION_VERSIONS: { readonly [Interface in ContractInterface]: readonly string[] } = {
  'chat-model': ['v1'],
  'agent-runner': ['v1'],
  environment: ['v1'],
  backend: ['v1'],
  'package-manifest': ['v1'],
};

/** Whether this release of the contract defines `version` of `contractInterface`. */
export function isSupportedSpecificationVersion(contractInterface: ContractInterface, version: unknown): boolean {
  return typeof version === 'string' && SUPPORTED_SPECIFICATION_VERSIONS[contractInterface].includes(version);
}
