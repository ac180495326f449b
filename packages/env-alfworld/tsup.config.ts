import { libraryBuild } from '../../tsup.base';

// The initial skill (markdown) and the Python bridge are embedded in the bundle as strings.
export default libraryBuild(['src/index.ts'], { loader: { '.md': 'text', '.py': 'text' } });
