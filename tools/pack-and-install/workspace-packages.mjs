// What the pack-and-install check and the example runner share: the public workspace packages,
// the @skillopt packages a selection pulls in, and packing one package into a tarball.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const workspaceRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function readWorkspaceManifest() {
  return JSON.parse(readFileSync(path.join(workspaceRoot, 'package.json'), 'utf8'));
}

/** The workspace's packages that are published (not private), by name: their directory and package.json. */
export function publicPackages() {
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

/** The named packages with every @skillopt package they depend on, however indirectly. */
export function withInternalDependencies(names, packages) {
  const closure = new Set();
  const visit = (name) => {
    if (closure.has(name)) return;
    const entry = packages.get(name);
    if (!entry) throw new Error(`${name} is not a public workspace package`);
    closure.add(name);
    for (const dependency of Object.keys(entry.manifest.dependencies ?? {})) if (packages.has(dependency)) visit(dependency);
  };
  names.forEach(visit);
  return [...closure];
}

/** Packs one package with `pnpm pack` (workspace ranges become versions) and returns the tarball's path. */
export function packPackage(packageDirectory, tarballDirectory) {
  const before = new Set(readdirSync(tarballDirectory));
  execFileSync('pnpm', ['pack', '--pack-destination', tarballDirectory], { cwd: packageDirectory, stdio: 'pipe' });
  const tarball = readdirSync(tarballDirectory).find((file) => !before.has(file));
  if (!tarball) throw new Error('no tarball was written');
  return path.join(tarballDirectory, tarball);
}
