import type { ScaffoldContext } from './context.js';
import { EXAMPLE_CONFIG_PATH } from './example-config.js';

/** README.md of the env package: install, config keys, tests, publishing, how SkillOpt finds it. */
export function buildReadme(context: ScaffoldContext): string {
  const { name, packageName } = context;
  const fence = '```';
  return `# ${packageName}

A SkillOpt environment: **${name}**. Short
questions answered in an \`<answer>\` tag, scored by exact match (hard, the pass mark) and token F1
(soft). It is written against \`@skillopt/contract\` and \`@skillopt/env-kit\` alone, passes their
conformance suite, and \`skillopt train\` loads it by name.

Written by \`skillopt env new ${name}\`. Plain ES modules, no build step; Node 20.19 or later.

## Install

In the project you train from (beside \`@skillopt/cli\`):

${fence}sh
npm install ${packageName}
${fence}

## Train on it

With the SkillOpt CLI installed (\`npm install -g @skillopt/cli\`; or, installed in your project or
not at all, run it as \`npx @skillopt/cli\` in place of \`skillopt\`):

${fence}sh
skillopt train --config ${EXAMPLE_CONFIG_PATH}
${fence}

[\`${EXAMPLE_CONFIG_PATH}\`](${EXAMPLE_CONFIG_PATH}) trains the shipped initial skill on SkillOpt's
**simulated model** (backend \`sim\`): no API key, no network. Swap \`model.target_backend\`,
\`model.optimizer_backend\` and the model names for a real provider.

### How \`skillopt train\` finds this package

A config names the env by its short name, \`env.name: ${name}\`. SkillOpt looks for
\`@skillopt/env-${name}\`, then \`${packageName}\`, first from the working directory's project
(its \`node_modules\`), then beside the CLI itself. So:

- **installed** in your project (\`npm install ${packageName}\`), \`env.name: ${name}\` finds it in
  \`node_modules\`;
- **in this directory** (while you develop it), the same name resolves to the package itself:
  Node lets a package import its own name through its \`exports\` (a self-reference), so
  \`skillopt train --config ${EXAMPLE_CONFIG_PATH}\` works here without installing the package anywhere;
- a **path** also works: \`env.name: ./path/to/${packageName}\` (relative to the working directory).

SkillOpt then reads \`manifest\` (kind \`env\`, id \`${name}\`), validates the config's \`env\` section
with \`manifest.configSchema\`, and calls \`createEnvironment(section)\`.

## Config keys (\`env:\`)

| key | default | what it does |
|---|---|---|
| \`name\` | — | \`${name}\` (read by SkillOpt, not by this package) |
| \`split_dir\` | the shipped \`data/\` | a split root of your own: \`<split>/items.json\`, \`<split>/items.jsonl\`, \`<split>.json\` or \`<split>.jsonl\` for train, val and test; relative to the config file |
| \`limit\` | \`0\` | keep only the first \`limit\` items of each split; 0 keeps all |
| \`max_completion_tokens\` | \`1024\` | the target's output-token cap for one answer |

The schema is strict: a misspelt key is an error, with the nearest valid key suggested. An item is
\`{"id", "question", "answers": [...], "answer_type"?}\`; \`answers\` are the gold answers, never
shown to the model.

## Layout

${fence}
src/index.js           manifest + createEnvironment: loads splits, one target call per item, scores it
src/config.js          the strict zod schema of the env's config section
src/scoring.js         <answer> extraction, exact match and token F1 (from @skillopt/env-kit)
data/{train,val,test}/items.json   the shipped dataset (6 / 3 / 3 items)
skills/initial.md      the skill training starts from
test/conformance.test.js           env-kit's conformance suite + package-entry checks
test/scoring.test.js   unit tests of the scorer
${EXAMPLE_CONFIG_PATH}    a run on the simulated model
${fence}

## Run the tests

${fence}sh
npm install
npm test
${fence}

\`npm test\` runs Jest on the ES modules as they are (\`--experimental-vm-modules\`, no transform), so
there is nothing to build. The conformance suite (\`describeEnvironmentConformance\` from
\`@skillopt/env-kit/conformance\`) checks the contract with test-double models: item schemas,
deterministic loading, provider errors never scored as 0, abort, concurrent runs equal sequential.

## Publish

${fence}sh
npm test
npm pack --dry-run      # check what ships: src, data, skills, README.md
npm publish
${fence}

Keep the name \`${packageName}\` (or \`@your-scope/env-${name}\`, which a config then names in
full): the \`skillopt-env-\` prefix is what lets \`env.name: ${name}\` find it. Declare
\`@skillopt/contract\` and \`@skillopt/env-kit\` as dependencies (not peers), as here.
`;
}
