import { libraryBuild } from '../../tsup.base';

// The shims give the CommonJS build an import.meta.url, from which the bin of @skillopt/sleep is resolved.
export default libraryBuild(['src/index.ts'], { shims: true });
