#!/usr/bin/env node
// The project's own check of the dependency rule docs/architecture.md states (its table, as data in
// layers.json beside this file; tools/test/dependency-rule-table.test.ts keeps the two the same).
// It reads every workspace package's declared runtime dependencies and, with TypeScript's own
// pre-processor, every module specifier its non-test sources import, so a dependency that is
// imported but not declared, or declared against the rule, is caught either way.
// Usage: node check-layering.mjs [workspace-root]  (default: this checkout).
// Prints one line per violation and exits 1 when there is any; silent and 0 otherwise.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const toolDirectory = path.dirname(fileURLToPath(import.meta.url));
const workspaceRoot = path.resolve(process.argv[2] ?? path.join(toolDirectory, '..', '..'));
const rules = JSON.parse(readFileSync(path.join(toolDirectory, 'layers.json'), 'utf8'));
const kindPatterns = rules.namePatterns.map(({ pattern, kind }) => ({ expression: new RegExp(pattern), kind }));

function kindOfPackage(name) {
  for (const { expression, kind } of kindPatterns) {
    const match = expression.exec(name);
    if (match) return kind.replace('$1', match[1] ?? '');
  }
  return undefined;
}

function workspacePackageDirectories() {
  const directories = [];
  for (const group of ['packages', 'apps']) {
    const groupDirectory = path.join(workspaceRoot, group);
    if (!existsSync(groupDirectory)) continue;
    for (const entry of readdirSync(groupDirectory, { withFileTypes: true })) {
      const directory = path.join(groupDirectory, entry.name);
      if (entry.isDirectory() && existsSync(path.join(directory, 'package.json'))) directories.push(directory);
    }
  }
  return directories;
}

const testPathPattern = /(^|[\\/])(test|tests|__tests__|__fixtures__)([\\/]|$)|\.(test|spec)\.[cm]?[jt]sx?$/;

/** The code a package ships: `src/`, and the other folders its `files` list (a plugin's bin, hooks and scripts), not the build. */
function shippedSourceFiles(packageDirectory, manifest) {
  const folders = ['src', ...(manifest.files ?? []).filter((entry) => entry !== 'dist' && entry !== 'src')];
  return folders
    .map((folder) => path.join(packageDirectory, folder))
    .filter((folder) => existsSync(folder) && statSync(folder).isDirectory())
    .flatMap((folder) => readdirSync(folder, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && /\.[cm]?[jt]sx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !testPathPattern.test(path.relative(packageDirectory, file)));
}

function packageNameOfSpecifier(specifier) {
  if (!specifier.startsWith('@skillopt/')) return undefined;
  return specifier.split('/').slice(0, 2).join('/');
}

// `import('@skillopt/env-' + name)` is resolution at run time, not a dependency: TypeScript reports
// its first literal piece, so a specifier whose literal is continued by `+` is left out.
function isComputedSpecifier(text, reference) {
  const quote = text[reference.pos];
  const closingQuote = text.indexOf(quote, reference.pos + 1);
  return text
    .slice(closingQuote + 1)
    .trimStart()
    .startsWith('+');
}

function describeAllowed(allowed) {
  return allowed.length ? allowed.join(', ') : 'nothing of ours';
}

const violations = new Set();
for (const packageDirectory of workspacePackageDirectories()) {
  const manifest = JSON.parse(readFileSync(path.join(packageDirectory, 'package.json'), 'utf8'));
  const where = path.relative(workspaceRoot, packageDirectory);
  const kind = kindOfPackage(manifest.name ?? '');
  if (!kind) {
    if (manifest.name?.startsWith('@skillopt/')) violations.add(`${where}: ${manifest.name} is no kind of package docs/architecture.md names`);
    continue;
  }
  const allowed = rules.kinds[kind];
  const runtimeDependencies = new Set(Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies }));
  const judge = (dependencyName, how) => {
    if (dependencyName === manifest.name || allowed === '*') return;
    const dependencyKind = kindOfPackage(dependencyName);
    if (dependencyKind && !allowed.includes(dependencyKind))
      violations.add(
        `${where}: ${manifest.name} (${kind}) ${how} ${dependencyName} (${dependencyKind}); ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} may depend on ${describeAllowed(allowed)} (docs/architecture.md)`,
      );
  };
  for (const dependencyName of runtimeDependencies) judge(dependencyName, 'depends on');
  for (const file of shippedSourceFiles(packageDirectory, manifest)) {
    const text = readFileSync(file, 'utf8');
    for (const reference of ts.preProcessFile(text, true, true).importedFiles) {
      if (isComputedSpecifier(text, reference)) continue;
      const dependencyName = packageNameOfSpecifier(reference.fileName);
      if (!dependencyName || dependencyName === manifest.name) continue;
      if (!runtimeDependencies.has(dependencyName))
        violations.add(`${path.relative(workspaceRoot, file)}: imports ${dependencyName} without declaring it in dependencies`);
      judge(dependencyName, 'imports');
    }
  }
}

for (const violation of violations) console.log(violation);
process.exitCode = violations.size ? 1 : 0;
