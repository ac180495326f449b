import { libraryBuild } from '../../tsup.base';

// `testing` is the `./testing` subpath: a real redis-server on a loopback port for tests.
export default libraryBuild(['src/index.ts', 'src/testing.ts']);
