import { libraryBuild } from '../../tsup.base';

export default libraryBuild(['src/index.ts']);
