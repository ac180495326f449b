import { libraryBuild } from '../../tsup.base';

export default libraryBuild(['src/index.ts', 'src/conformance.ts', 'src/testing.ts']);
