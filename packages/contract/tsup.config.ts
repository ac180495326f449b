import { libraryBuild } from '../../tsup.base';

// The errors and the secret redaction are entries of their own too: a consumer that needs only
// them (Sleep's harvest) loads neither zod nor the schemas. Code shared by the entries goes into
// common chunks in the CommonJS build as well, so `SkillOptError` is one class whichever entry
// a caller required it through.
export default libraryBuild(['src/index.ts', 'src/errors.ts', 'src/secret-redaction.ts'], { splitting: true });
