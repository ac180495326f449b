#!/usr/bin/env node
// Every change to a published package comes with a changeset (README, "Contributing"). Given a
// base ref, it lists the published packages whose shipped files changed since that ref — their
// source, package.json or README; not their tests — and fails for each that no changeset added
// since the ref names. Run by the pre-push hook (.githooks/pre-push) and by `pnpm check` when
// SKILLOPT_BASE_REF is set.
//
//   node tools/changesets/check-changesets.mjs <base-ref> [workspace root, default: this repository]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const workspaceRoot = path.resolve(process.argv[3] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..'));

/** Published packages by directory (relative, forward slashes) → name. */
function publishedPackages(root) {
  const packages = new Map();
  for (const group of ['packages', 'apps']) {
    const groupDirectory = path.join(root, group);
    if (!existsSync(groupDirectory)) continue;
    for (const entry of readdirSync(groupDirectory, { withFileTypes: true })) {
      const manifestPath = path.join(groupDirectory, entry.name, 'package.json');
      if (!entry.isDirectory() || !existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      if (manifest.private !== true && typeof manifest.name === 'string') packages.set(`${group}/${entry.name}`, manifest.name);
    }
  }
  return packages;
}

/** Whether a changed file inside a package directory ships (or builds what ships). */
function isShippedFile(relativePath) {
  if (/(^|\/)(test|tests|__tests__|test-results|dist)\//.test(relativePath)) return false;
  if (/\.test\.[cm]?[jt]sx?$/.test(relativePath)) return false;
  return /^src\//.test(relativePath) || relativePath === 'package.json' || relativePath === 'README.md' || /^bin\//.test(relativePath);
}

/** The package names a changeset file's front matter bumps. */
function packagesNamedBy(changesetText) {
  const frontMatter = /^---\n([\s\S]*?)\n---/.exec(changesetText)?.[1] ?? '';
  return [...frontMatter.matchAll(/^\s*['"]?(@?[^'":\s]+)['"]?\s*:\s*(major|minor|patch)\s*$/gm)].map((match) => match[1]);
}

/** The packages that changed since `changedFiles` were made and that no changeset names. */
function packagesMissingChangesets({ changedFiles, changesetTexts, packages }) {
  const named = new Set(changesetTexts.flatMap(packagesNamedBy));
  const changed = new Set();
  for (const file of changedFiles)
    for (const [directory, name] of packages) if (file.startsWith(`${directory}/`) && isShippedFile(file.slice(directory.length + 1))) changed.add(name);
  return [...changed].filter((name) => !named.has(name)).sort();
}

function git(...args) {
  return execFileSync('git', args, { cwd: workspaceRoot, encoding: 'utf8' });
}

const base = process.argv[2];
if (!base) {
  console.error('usage: node tools/changesets/check-changesets.mjs <base-ref> [workspace root]');
  process.exit(2);
}
{
  const lines = (text) => text.split('\n').filter((line) => line.trim() !== '');
  const changedFiles = lines(git('diff', '--name-only', `${base}...HEAD`));
  const addedChangesets = lines(git('diff', '--name-only', '--diff-filter=AM', `${base}...HEAD`, '--', '.changeset')).filter(
    (file) => file.endsWith('.md') && !file.endsWith('README.md') && existsSync(path.join(workspaceRoot, file)),
  );
  const missing = packagesMissingChangesets({
    changedFiles,
    changesetTexts: addedChangesets.map((file) => readFileSync(path.join(workspaceRoot, file), 'utf8')),
    packages: publishedPackages(workspaceRoot),
  });
  if (missing.length === 0) {
    console.log(`changesets: every published package changed since ${base} has one`);
  } else {
    console.log(`changesets: these published packages changed since ${base} without a changeset: ${missing.join(', ')}`);
    console.log('  add one with `pnpm changeset` (see .changeset/README.md)');
    process.exitCode = 1;
  }
}
