import { libraryBuild } from '../../tsup.base';

// The testing and conformance entries stay out of the main one, so production code never loads
// test doubles or `node:assert`.
export default libraryBuild(['src/index.ts', 'src/testing.ts', 'src/conformance.ts']);
