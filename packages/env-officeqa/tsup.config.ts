import { libraryBuild } from '../../tsup.base';

// The initial skill is a markdown file embedded in the bundle as a string.
export default libraryBuild(['src/index.ts'], { loader: { '.md': 'text' } });
