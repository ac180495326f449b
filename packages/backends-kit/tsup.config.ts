import { libraryBuild } from '../../tsup.base';

export default libraryBuild(['src/index.ts', 'src/testing.ts']);
