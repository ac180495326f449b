import { buildConfigSource } from './config-source.js';
import type { ScaffoldContext, ScaffoldFile } from './context.js';
import { buildDatasetFiles } from './dataset.js';
import { buildEnvironmentSource } from './environment-source.js';
import { buildExampleConfig, EXAMPLE_CONFIG_PATH } from './example-config.js';
import { buildGitignore } from './gitignore.js';
import { buildInitialSkill } from './initial-skill.js';
import { buildPackageJson } from './package-json.js';
import { buildReadme } from './readme.js';
import { buildScoringSource } from './scoring-source.js';
import { buildTestFiles } from './tests-source.js';

/** Every file of a scaffolded env package, in the order they are listed to the user. */
export function scaffoldFiles(context: ScaffoldContext): ScaffoldFile[] {
  return [
    { path: 'package.json', content: buildPackageJson(context) },
    { path: 'README.md', content: buildReadme(context) },
    { path: '.gitignore', content: buildGitignore() },
    { path: 'src/index.js', content: buildEnvironmentSource(context) },
    { path: 'src/config.js', content: buildConfigSource(context) },
    { path: 'src/scoring.js', content: buildScoringSource() },
    ...buildDatasetFiles(),
    { path: 'skills/initial.md', content: buildInitialSkill(context) },
    ...buildTestFiles(context),
    { path: EXAMPLE_CONFIG_PATH, content: buildExampleConfig(context) },
  ];
}
