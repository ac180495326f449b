/**
 * The name of a scaffolded env: what `env.name` says in a config, the env's `id`, and the last part
 * of its package name `skillopt-env-<name>`, which is how `skillopt train` finds it by that short
 * name (docs/architecture.md, "Packages and the one rule of dependencies").
 */

/** Lower-case letters and digits in dash-separated words: `demo-bench`, `trivia2`. */
const ENVIRONMENT_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** npm's limit on a package name is 214 characters; `skillopt-env-` takes 13 of them. */
const MAX_ENVIRONMENT_NAME_LENGTH = 200;

/** The npm package name of an env called `name`. */
export function packageNameFor(name: string): string {
  return `skillopt-env-${name}`;
}

/** Why `name` cannot name an env package, or undefined when it can. */
export function describeEnvironmentNameProblem(name: string): string | undefined {
  const shown = JSON.stringify(name);
  if (name.startsWith('skillopt-env-') && ENVIRONMENT_NAME_PATTERN.test(name)) {
    const short = name.slice('skillopt-env-'.length);
    return `give the env's short name, not the package name: skillopt env new ${short === '' ? '<name>' : short} (the package is called skillopt-env-<name>)`;
  }
  if (name.length > MAX_ENVIRONMENT_NAME_LENGTH) return `the env name ${shown} is longer than ${MAX_ENVIRONMENT_NAME_LENGTH} characters`;
  if (!ENVIRONMENT_NAME_PATTERN.test(name)) {
    const suggestion = name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '');
    const hint = suggestion !== '' && suggestion !== name && ENVIRONMENT_NAME_PATTERN.test(suggestion) ? ` (for example ${suggestion})` : '';
    return `invalid env name ${shown}: use lower-case letters, digits and single dashes between them, starting and ending with a letter or digit${hint}`;
  }
  return undefined;
}
