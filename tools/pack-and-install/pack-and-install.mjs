#!/usr/bin/env node
// Packs the public packages with `pnpm pack`, installs the ones a user would pick (selection.json)
// with plain `npm install` into a fresh directory, and loads every export from ESM and CommonJS and
// type-checks a consumer against the installed declarations. Third-party dependencies come from the
// npm registry, as in any install. Results go to test-results/pack-and-install.json.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const toolDirectory = path.dirname(fileURLToPath(import.meta.url));
const workspaceRoot = path.resolve(toolDirectory, '..', '..');
const selection = JSON.parse(readFileSync(path.join(toolDirectory, 'selection.json'), 'utf8')).install;
const results = { passed: [], failed: [] };

function record(name, check) {
  try {
    check();
    results.passed.push(name);
    console.log(`ok - ${name}`);
  } catch (error) {
    const output = [error.stdout, error.stderr].map((stream) => String(stream ?? '').trim()).filter(Boolean).join('\n');
    const reason = (output || String(error.message ?? error)).split('\n').slice(0, 20).join('\n');
    results.failed.push(`${name}: ${reason}`);
    console.log(`not ok - ${name}\n${reason.replace(/^/gm, '    ')}`);
  }
}

function readWorkspaceManifest() {
  return JSON.parse(readFileSync(path.join(workspaceRoot, 'package.json'), 'utf8'));
}

function publicPackages() {
  const packages = new Map();
  for (const group of ['packages', 'apps']) {
    const groupDirectory = path.join(workspaceRoot, group);
    if (!existsSync(groupDirectory)) continue;
    for (const entry of readdirSync(groupDirectory)) {
      const manifestPath = path.join(groupDirectory, entry, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      if (!manifest.private) packages.set(manifest.name, { directory: path.dirname(manifestPath), manifest });
    }
  }
  return packages;
}

/** The selected packages with every @skillopt package they depend on, however indirectly. */
function withInternalDependencies(names, packages) {
  const closure = new Set();
  const visit = (name) => {
    if (closure.has(name)) return;
    const entry = packages.get(name);
    if (!entry) throw new Error(`selection.json names ${name}, which is not a public workspace package`);
    closure.add(name);
    for (const dependency of Object.keys(entry.manifest.dependencies ?? {})) if (packages.has(dependency)) visit(dependency);
  };
  names.forEach(visit);
  return [...closure];
}

function exportedSubpaths(manifest) {
  return Object.keys(manifest.exports ?? { '.': manifest.main }).filter((subpath) => !subpath.endsWith('package.json'));
}

function specifierOf(name, subpath) {
  return subpath === '.' ? name : `${name}/${subpath.slice(2)}`;
}

const installDirectory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-pack-and-install-'));
try {
  const packages = publicPackages();
  const chosen = withInternalDependencies(selection, packages);
  const tarballDirectory = path.join(installDirectory, 'tarballs');
  mkdirSync(tarballDirectory);
  const tarballs = [];
  for (const name of chosen) {
    record(`pnpm pack ${name}`, () => {
      const before = new Set(readdirSync(tarballDirectory));
      execFileSync('pnpm', ['pack', '--pack-destination', tarballDirectory], { cwd: packages.get(name).directory, stdio: 'pipe' });
      const tarball = readdirSync(tarballDirectory).find((file) => !before.has(file));
      if (!tarball) throw new Error('no tarball was written');
      tarballs.push(path.join(tarballDirectory, tarball));
    });
  }

  const projectDirectory = path.join(installDirectory, 'project');
  mkdirSync(projectDirectory);
  writeFileSync(path.join(projectDirectory, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2));
  record(`npm install ${chosen.length} tarballs into a fresh project`, () => {
    // @types/node as a TypeScript user on Node has it: the kits' declarations name Node's types.
    const nodeTypes = `@types/node@${readWorkspaceManifest().devDependencies['@types/node']}`;
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs, nodeTypes], { cwd: projectDirectory, stdio: 'pipe' });
    for (const name of chosen) {
      const installed = JSON.parse(readFileSync(path.join(projectDirectory, 'node_modules', name, 'package.json'), 'utf8'));
      for (const [dependency, range] of Object.entries(installed.dependencies ?? {}))
        if (range.startsWith('workspace:')) throw new Error(`${name} was packed with ${dependency}@${range}`);
    }
  });

  const specifiers = chosen.flatMap((name) => exportedSubpaths(packages.get(name).manifest).map((subpath) => specifierOf(name, subpath)));
  const loadScript = (load) =>
    `const specifiers = ${JSON.stringify(specifiers)};\n` +
    `for (const specifier of specifiers) {\n` +
    `  const loaded = ${load};\n` +
    `  const names = Object.keys(loaded).filter((name) => name !== 'default');\n` +
    `  if (names.length === 0) throw new Error(specifier + ' exports nothing');\n` +
    `}\n`;
  writeFileSync(path.join(projectDirectory, 'load.mjs'), loadScript('await import(specifier)'));
  writeFileSync(path.join(projectDirectory, 'load.cjs'), loadScript('require(specifier)'));
  record(`import ${specifiers.length} entry points from ESM`, () => execFileSync('node', ['load.mjs'], { cwd: projectDirectory, stdio: 'pipe' }));
  record(`require ${specifiers.length} entry points from CommonJS`, () => execFileSync('node', ['load.cjs'], { cwd: projectDirectory, stdio: 'pipe' }));

  // Type-check one ESM and one CommonJS consumer under NodeNext, which is the strictest resolver.
  const typeImports = specifiers.map((specifier, index) => `import * as entry${index} from '${specifier}';\nexport type Entry${index} = typeof entry${index};`).join('\n');
  writeFileSync(path.join(projectDirectory, 'consumer.mts'), `${typeImports}\n`);
  writeFileSync(path.join(projectDirectory, 'consumer.cts'), `${typeImports}\n`);
  writeFileSync(
    path.join(projectDirectory, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], lib: ['ES2022'] }, files: ['consumer.mts', 'consumer.cts'] }, null, 2),
  );
  const typescriptCompiler = createRequire(path.join(workspaceRoot, 'package.json')).resolve('typescript/bin/tsc');
  record('type-check consumers against the installed declarations (NodeNext)', () =>
    execFileSync('node', [typescriptCompiler, '-p', 'tsconfig.json'], { cwd: projectDirectory, stdio: 'pipe' }),
  );
} finally {
  rmSync(installDirectory, { recursive: true, force: true });
  const resultsDirectory = path.join(toolDirectory, 'test-results');
  mkdirSync(resultsDirectory, { recursive: true });
  writeFileSync(path.join(resultsDirectory, 'pack-and-install.json'), JSON.stringify(results, null, 2));
}
process.exitCode = results.failed.length ? 1 : 0;
