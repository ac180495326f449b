/**
 * The environment of a child: only the `allowed` variables of `parent` that are set, then
 * `extra` on top.
 */
export function buildChildEnvironment(
  allowed: readonly string[],
  extra: Readonly<Record<string, string>>,
  parent: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of allowed) {
    const value = parent[name];
    if (value !== undefined) environment[name] = value;
  }
  return Object.assign(environment, extra);
}
