// `skillopt env new`: the files of a third-party env package, one template per concept, as string
// builders (bundled with the command; nothing is read from disk at run time). Its writer also
// writes `skillopt init`'s starter project (src/starter).
export { describeEnvironmentNameProblem, packageNameFor } from './names.js';
export { detectScaffoldVersions } from './versions.js';
export { EXAMPLE_CONFIG_PATH } from './example-config.js';
export { scaffoldFiles } from './scaffold-files.js';
export { describeTargetDirectoryProblem, existingScaffoldFiles, writeScaffold } from './writer.js';
