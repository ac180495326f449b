import { libraryBuild } from '../../tsup.base';

// Prompt templates are markdown files embedded in the bundle as strings.
export default libraryBuild(['src/index.ts'], { loader: { '.md': 'text' } });
