import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

// A package's README is also its page on the npm registry, where only two kinds of link work:
// absolute URLs, and relative links to files inside the package's tarball. Links into the rest of
// the repository are written against one base, REPOSITORY_BASE (blob/main/ for a file, tree/main/
// for a folder), and must name a file or folder the repository holds.
const repositoryRoot = path.resolve(__dirname, '..', '..');
const REPOSITORY_BASE = 'https://github.com/skillopt/skillopt-ts/';
const REPOSITORY_LINK = /^https:\/\/github\.com\/skillopt\/skillopt-ts\/(?:blob|tree)\/main\/([^#?]*)/;
// npm puts these in every tarball, whatever `files` says.
const ALWAYS_PACKED = [/^package\.json$/, /^readme(\..*)?$/i, /^licen[cs]e(\..*)?$/i, /^changelog(\..*)?$/i];

interface PublicPackage {
  directory: string;
  files: string[];
}

function publicPackages(): PublicPackage[] {
  return ['packages', 'apps'].flatMap((group) =>
    readdirSync(path.join(repositoryRoot, group), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(path.join(repositoryRoot, group, entry.name, 'package.json')))
      .map((entry) => {
        const directory = path.join(group, entry.name);
        const manifest = JSON.parse(readFileSync(path.join(repositoryRoot, directory, 'package.json'), 'utf8')) as { private?: boolean; files?: string[] };
        return { directory, files: manifest.files ?? [], private: manifest.private === true };
      })
      .filter((entry) => !entry.private && existsSync(path.join(repositoryRoot, entry.directory, 'README.md'))),
  );
}

/** The link targets of a markdown text outside code: inline links and images, reference definitions, HTML href and src. */
function linkTargets(text: string): string[] {
  const withoutCode = text.replace(/^\s*(```|~~~)[\s\S]*?^\s*\1/gm, '').replace(/`[^`\n]*`/g, '');
  return [
    ...[...withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1] as string),
    ...[...withoutCode.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((match) => match[1] as string),
    ...[...withoutCode.matchAll(/\b(?:href|src)\s*=\s*["']([^"']+)["']/g)].map((match) => match[1] as string),
  ];
}

function isPacked(relativePath: string, files: string[]): boolean {
  const normalised = relativePath.split(path.sep).join('/');
  if (ALWAYS_PACKED.some((pattern) => pattern.test(normalised))) return true;
  return files.some((entry) => {
    const packed = entry.replace(/^\.\//, '').replace(/\/$/, '');
    return normalised === packed || normalised.startsWith(`${packed}/`);
  });
}

/** What is wrong with one link of a package README, or undefined when it works on the registry's page. */
function problemOf(link: string, readmePackage: PublicPackage): string | undefined {
  if (link.startsWith('#') || link.startsWith('mailto:')) return undefined;
  const repositoryLink = REPOSITORY_LINK.exec(link);
  if (repositoryLink) {
    const target = decodeURIComponent(repositoryLink[1] as string);
    return existsSync(path.join(repositoryRoot, target)) ? undefined : `the repository has no ${target}`;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(link)) return undefined;
  const target = decodeURIComponent(link.split('#')[0] as string);
  const packageDirectory = path.join(repositoryRoot, readmePackage.directory);
  const resolved = path.resolve(packageDirectory, target);
  const inside = path.relative(packageDirectory, resolved);
  if (inside.startsWith('..') || path.isAbsolute(inside) || !isPacked(inside, readmePackage.files))
    return `a relative link to a file outside the package's tarball: on the registry's page it leads nowhere; link ${REPOSITORY_BASE}blob/main/${path.relative(repositoryRoot, resolved).split(path.sep).join('/')} instead`;
  return existsSync(resolved) ? undefined : `the package has no ${inside}`;
}

describe('package README links', () => {
  const packages = publicPackages();

  it('finds the public packages with a README', () => {
    expect(packages.map((entry) => entry.directory)).toEqual(expect.arrayContaining(['apps/cli', 'packages/contract', 'packages/core']));
  });

  it('are absolute or point into the package tarball, and links into the repository name files it holds', () => {
    const problems: string[] = [];
    for (const readmePackage of packages) {
      const readme = path.join(readmePackage.directory, 'README.md');
      for (const link of linkTargets(readFileSync(path.join(repositoryRoot, readme), 'utf8'))) {
        const problem = problemOf(link, readmePackage);
        if (problem) problems.push(`${readme}: ${link}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('tells a relative link outside the tarball from one inside it', () => {
    const cli = { directory: 'apps/cli', files: ['bin', 'dist', 'oclif.manifest.json', 'README.md'] };
    expect(problemOf('../../README.md', cli)).toMatch(/outside the package's tarball.*blob\/main\/README\.md/);
    expect(problemOf('docs/guide.md', cli)).toMatch(/outside the package's tarball/);
    expect(problemOf('bin/run.js', cli)).toBeUndefined();
    expect(problemOf('package.json', cli)).toBeUndefined();
    expect(problemOf('https://github.com/skillopt/skillopt-ts/blob/main/docs/architecture.md', cli)).toBeUndefined();
    expect(problemOf('https://github.com/skillopt/skillopt-ts/blob/main/docs/no-such-file.md', cli)).toMatch(/has no docs\/no-such-file\.md/);
    expect(problemOf('https://example.org/page', cli)).toBeUndefined();
  });

  it('reads inline links, reference definitions and HTML attributes, but not code', () => {
    const text = ['[a](one.md) ![b](two.png "title")', '[c]: three.md', '<img src="four.svg">', '`[d](five.md)`', '```md', '[e](six.md)', '```'].join('\n');
    expect(linkTargets(text)).toEqual(['one.md', 'two.png', 'three.md', 'four.svg']);
  });
});
