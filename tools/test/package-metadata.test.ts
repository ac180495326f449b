import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// What the registry's page of every published package needs (item 6 of issue #16): where its source
// is (`repository`, with the folder it lives in), its home and where to report a bug; and every
// subpath export importable under `moduleResolution: node10`, which reads no `exports` map, through
// a `typesVersions` entry naming the same declarations.
const repositoryRoot = path.resolve(__dirname, '..', '..');
const REPOSITORY_URL = 'git+https://github.com/skillopt/skillopt-ts.git';

interface Manifest {
  name: string;
  private?: boolean;
  repository?: { type?: string; url?: string; directory?: string };
  homepage?: string;
  bugs?: { url?: string };
  exports?: Record<string, unknown>;
  typesVersions?: Record<string, Record<string, string[]>>;
}

function publishedPackages(): Array<{ directory: string; manifest: Manifest }> {
  return ['packages', 'apps'].flatMap((group) =>
    readdirSync(path.join(repositoryRoot, group), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(path.join(repositoryRoot, group, entry.name, 'package.json')))
      .map((entry) => ({
        directory: `${group}/${entry.name}`,
        manifest: JSON.parse(readFileSync(path.join(repositoryRoot, group, entry.name, 'package.json'), 'utf8')) as Manifest,
      }))
      .filter(({ manifest }) => manifest.private !== true),
  );
}

function requireTypesOf(target: unknown): string | undefined {
  const require = (target as { require?: { types?: unknown } } | undefined)?.require;
  return typeof require?.types === 'string' ? require.types : undefined;
}

describe('the package.json of every published package', () => {
  const packages = publishedPackages();

  it('covers every package of the workspace that is published', () => {
    expect(packages.map(({ manifest }) => manifest.name)).toEqual(expect.arrayContaining(['@skillopt/cli', '@skillopt/env-kit', '@skillopt/contract']));
  });

  it('names its repository and folder, its homepage and where bugs go', () => {
    const problems = packages.flatMap(({ directory, manifest }) => {
      const expected = {
        repository: { type: 'git', url: REPOSITORY_URL, directory },
        homepage: `https://github.com/skillopt/skillopt-ts/tree/main/${directory}#readme`,
        bugs: { url: 'https://github.com/skillopt/skillopt-ts/issues' },
      };
      return (Object.keys(expected) as Array<keyof typeof expected>)
        .filter((key) => JSON.stringify(manifest[key]) !== JSON.stringify(expected[key]))
        .map((key) => `${manifest.name}: ${key} is ${JSON.stringify(manifest[key])}, expected ${JSON.stringify(expected[key])}`);
    });
    expect(problems).toEqual([]);
  });

  it('maps every subpath export for node10 resolution (typesVersions) to the declarations its exports name', () => {
    const problems = packages.flatMap(({ manifest }) =>
      Object.entries(manifest.exports ?? {})
        .filter(([subpath]) => subpath !== '.' && subpath !== './package.json')
        .flatMap(([subpath, target]) => {
          const mapped = manifest.typesVersions?.['*']?.[subpath.slice(2)];
          const declarations = requireTypesOf(target);
          return mapped !== undefined && declarations !== undefined && mapped.length === 1 && mapped[0] === declarations
            ? []
            : [`${manifest.name}${subpath.slice(1)}: typesVersions maps it to ${JSON.stringify(mapped)}, its exports name ${String(declarations)}`];
        }),
    );
    expect(problems).toEqual([]);
  });
});
