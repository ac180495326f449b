import { libraryBuild } from '../../tsup.base';

// The shims give the CommonJS build an import.meta.url, by which sql.js's wasm file is found.
export default libraryBuild(['src/index.ts'], { shims: true });
