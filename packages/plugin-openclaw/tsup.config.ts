import { libraryBuild } from '../../tsup.base';

// The bin's code only: the package exports no library, so one ES module and no declarations.
export default libraryBuild(['src/command-line.ts'], { format: ['esm'], dts: false });
