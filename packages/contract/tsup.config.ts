import { libraryBuild } from '../../tsup.base';

// The errors and the secret redaction are entries of their own too: a consumer that needs only
// them (Sleep's harvest) loads neither zod nor the schemas.
export default libraryBuild(['src/index.ts', 'src/errors.ts', 'src/secret-redaction.ts']);
