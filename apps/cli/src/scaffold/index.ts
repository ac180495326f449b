// `skillopt env new`: the files of a third-party env package, one template per concept, as string
// builders (bundled with the command; nothing is read from disk at run time).
export { type ScaffoldContext, type ScaffoldFile } from './context.js';
export { describeEnvironmentNameProblem, ENVIRONMENT_NAME_PATTERN, packageNameFor } from './names.js';
export { DEFAULT_SCAFFOLD_VERSIONS, detectScaffoldVersions, type ScaffoldVersions } from './versions.js';
export { EXAMPLE_CONFIG_PATH } from './example-config.js';
export { SCAFFOLD_DATASET } from './dataset.js';
export { scaffoldFiles } from './scaffold-files.js';
export { describeTargetDirectoryProblem, writeScaffold } from './writer.js';
