import { libraryBuild } from '../../tsup.base';

// The shims give the CommonJS build an import.meta.url, by which sql.js's wasm file is found.
// `command-line` is the `skillopt-sleep` bin's code. `harvest-only` is the `./harvest` subpath: the harvest without the checkpoint store's
// dependencies; the code both entries share is one chunk in either format.
export default libraryBuild(['src/index.ts', 'src/harvest-only.ts', 'src/command-line.ts'], { shims: true, splitting: true });
