/** .gitignore of the env package: dependencies, packed tarballs and run directories. */
export function buildGitignore(): string {
  return ['node_modules/', '*.tgz', 'outputs/', 'runs/', ''].join('\n');
}
