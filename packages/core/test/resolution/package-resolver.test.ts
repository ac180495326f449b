import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { createPackageResolver, interpretPackageName, type PackageResolverOptions } from '../../src/resolution/index';
import { FIRST_PARTY_PACKAGES } from '../../src/resolution/known-package-names';
import { adviseMissingPackage } from '../../src/resolution/missing-package-advice';

let root: string;
let project: string;
let cliInstall: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'skillopt-resolve-'));
  project = path.join(root, 'project');
  cliInstall = path.join(root, 'cli');
  await mkdir(project, { recursive: true });
  await writeFile(path.join(project, 'package.json'), '{"name": "my-project", "private": true}\n');
  await mkdir(cliInstall, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

interface FixtureOptions {
  kind?: 'env' | 'backend';
  id?: string;
  description?: string;
  specificationVersion?: string;
  withFactory?: boolean;
  exportsField?: unknown;
  entryName?: string;
}

/** Writes a CommonJS package at `directory` exporting a manifest (and a factory unless told not to). */
async function writeFixturePackage(directory: string, packageName: string, options: FixtureOptions = {}): Promise<void> {
  const kind = options.kind ?? 'env';
  const entryName = options.entryName ?? 'index.cjs';
  await mkdir(directory, { recursive: true });
  const packageJson: Record<string, unknown> = { name: packageName, version: '1.0.0', main: entryName };
  if (options.exportsField !== undefined) packageJson.exports = options.exportsField;
  await writeFile(path.join(directory, 'package.json'), JSON.stringify(packageJson));
  await mkdir(path.dirname(path.join(directory, entryName)), { recursive: true });
  const factory = kind === 'env' ? 'createEnvironment' : 'createBackend';
  await writeFile(
    path.join(directory, entryName),
    [
      `exports.manifest = { kind: '${kind}', id: '${options.id ?? 'fixture'}', specificationVersion: '${options.specificationVersion ?? 'v1'}',`,
      `  description: ${JSON.stringify(options.description ?? packageName)}, configSchema: { safeParse: (input) => ({ success: true, data: input }) } };`,
      options.withFactory === false ? '' : `exports.${factory} = (config) => ({ config });`,
    ].join('\n'),
  );
}

const installIn = (base: string, packageName: string, options?: FixtureOptions) =>
  writeFixturePackage(path.join(base, 'node_modules', ...packageName.split('/')), packageName, options);

/** Jest runs CommonJS, where `import()` of a file URL is not available: load with require instead. */
function resolverFor(overrides: Partial<PackageResolverOptions> = {}) {
  return createPackageResolver({
    workingDirectory: project,
    fallbackDirectories: [cliInstall],
    importModule: (_url, file) => Promise.resolve(require(file)),
    conditions: ['require', 'node', 'default'],
    ...overrides,
  });
}

async function failureOf(promise: Promise<unknown>): Promise<SkillOptError> {
  const error = await promise.catch((caught: unknown) => caught);
  if (!SkillOptError.isInstance(error)) throw new Error(`expected a SkillOptError, got ${String(error)}`);
  return error;
}

describe('interpretPackageName', () => {
  it('tells short names, full names and paths apart', () => {
    expect(interpretPackageName('env', 'searchqa')).toEqual({
      form: 'names',
      conventional: ['@skillopt/env-searchqa', 'skillopt-env-searchqa'],
      asGiven: 'searchqa',
    });
    expect(interpretPackageName('backend', 'openai')).toEqual({
      form: 'names',
      conventional: ['@skillopt/backends-openai', 'skillopt-backends-openai'],
      asGiven: 'openai',
    });
    expect(interpretPackageName('env', '@acme/env-x')).toEqual({ form: 'names', conventional: ['@acme/env-x'], asGiven: undefined });
    expect(interpretPackageName('env', 'skillopt-env-x')).toEqual({ form: 'names', conventional: ['skillopt-env-x'], asGiven: undefined });
    expect(interpretPackageName('env', './envs/x')).toEqual({ form: 'path', path: './envs/x' });
    expect(interpretPackageName('env', '/abs/x')).toEqual({ form: 'path', path: '/abs/x' });
    expect(() => interpretPackageName('env', 'Not A Name')).toThrow(/neither a package name nor a path/);
  });
});

describe('createPackageResolver', () => {
  it('finds a short name as @skillopt/env-<name> in the working directory', async () => {
    await installIn(project, '@skillopt/env-fixture');
    const resolved = await resolverFor().resolveEnvironmentPackage('fixture');
    expect(resolved).toMatchObject({ kind: 'env', requestedName: 'fixture', packageName: '@skillopt/env-fixture', foundFrom: project });
    expect(resolved.entryFile).toBe(path.join(project, 'node_modules', '@skillopt', 'env-fixture', 'index.cjs'));
    expect(resolved.module.manifest.id).toBe('fixture');
    expect(typeof resolved.module.createEnvironment).toBe('function');
  });

  it('falls back to skillopt-env-<name>, then to the name as given', async () => {
    await installIn(project, 'skillopt-env-community', { id: 'community' });
    await installIn(project, 'freely-named', { id: 'freely-named' });
    expect((await resolverFor().resolveEnvironmentPackage('community')).packageName).toBe('skillopt-env-community');
    expect((await resolverFor().resolveEnvironmentPackage('freely-named')).packageName).toBe('freely-named');
  });

  it('takes full package names and paths as given', async () => {
    await installIn(project, '@acme/env-custom', { id: 'custom' });
    await writeFixturePackage(path.join(project, 'local-env'), 'local-env', { id: 'local' });
    await writeFixturePackage(path.join(project, 'single'), 'single', { id: 'single', entryName: 'entry.cjs' });
    const resolver = resolverFor();
    expect((await resolver.resolveEnvironmentPackage('@acme/env-custom')).module.manifest.id).toBe('custom');
    const local = await resolver.resolveEnvironmentPackage('./local-env');
    expect(local).toMatchObject({ packageName: undefined, packageDirectory: path.join(project, 'local-env') });
    expect(local.module.manifest.id).toBe('local');
    expect((await resolver.resolveEnvironmentPackage(path.join(project, 'single', 'entry.cjs'))).module.manifest.id).toBe('single');
  });

  it('prefers the working directory and falls back to the CLI’s install location', async () => {
    await installIn(project, '@skillopt/env-fixture', { description: 'from the project' });
    await installIn(cliInstall, '@skillopt/env-fixture', { description: 'from the CLI' });
    await installIn(cliInstall, '@skillopt/backends-sim', { kind: 'backend', id: 'sim' });
    const resolver = resolverFor();
    expect((await resolver.resolveEnvironmentPackage('fixture')).module.manifest.description).toBe('from the project');
    const backend = await resolver.resolveBackendPackage('sim');
    expect(backend).toMatchObject({ kind: 'backend', packageName: '@skillopt/backends-sim', foundFrom: cliInstall });
    expect(typeof backend.module.createBackend).toBe('function');
    expect(resolver.searchDirectories).toEqual([project, cliInstall]);
  });

  it('names the npm install that fixes a missing package and the directories searched', async () => {
    const error = await failureOf(resolverFor().resolveEnvironmentPackage('searchqa'));
    expect(error.code).toBe(ERROR_CODES.packageNotFound);
    expect(error.category).toBe('user');
    expect(error.message).toContain('npm install @skillopt/env-searchqa');
    expect(error.message).toContain('@skillopt/env-searchqa, skillopt-env-searchqa and searchqa');
    expect(error.message).toContain(project);
    expect(error.message).toContain(cliInstall);
    expect(error.details).toMatchObject({ installCommand: 'npm install @skillopt/env-searchqa', searchDirectories: [project, cliInstall] });

    const scoped = await failureOf(resolverFor().resolveBackendPackage('@acme/backends-x'));
    expect(scoped.message).toContain('If it is a third-party package, install it in your project under its published name, e.g. npm install @acme/backends-x');
    const missingPath = await failureOf(resolverFor().resolveEnvironmentPackage('./nowhere'));
    expect(missingPath.code).toBe(ERROR_CODES.packageNotFound);
    expect(missingPath.message).toContain(path.join(project, 'nowhere'));
  });

  it('suggests the installed package a misspelt name is near, with no npm install', async () => {
    await installIn(cliInstall, '@skillopt/env-searchqa', { id: 'searchqa' });
    const error = await failureOf(resolverFor().resolveEnvironmentPackage('searchqaa'));
    expect(error.code).toBe(ERROR_CODES.packageNotFound);
    expect(error.message).toContain('Did you mean "searchqa"? It is installed (@skillopt/env-searchqa).');
    expect(error.message).not.toContain('npm install');
    expect(error.details).toMatchObject({ didYouMean: 'searchqa' });
    expect(error.details).not.toHaveProperty('installCommand');
  });

  it('suggests the first-party package a misspelt name is near, with its real npm install', async () => {
    const env = await failureOf(resolverFor().resolveEnvironmentPackage('serchqa'));
    expect(env.message).toContain('Did you mean "searchqa"? Install it in your project: npm install @skillopt/env-searchqa');
    expect(env.message).not.toContain('npm install @skillopt/env-serchqa');
    expect(env.details).toMatchObject({ didYouMean: 'searchqa', installCommand: 'npm install @skillopt/env-searchqa' });
    const backend = await failureOf(resolverFor().resolveBackendPackage('opeani'));
    expect(backend.details).toMatchObject({ didYouMean: 'openai', installCommand: 'npm install @skillopt/backends-openai' });
    // A conventional full name is matched by its short name too.
    const full = await failureOf(resolverFor().resolveBackendPackage('@skillopt/backends-antropic'));
    expect(full.details).toMatchObject({ didYouMean: 'anthropic', installCommand: 'npm install @skillopt/backends-anthropic' });
  });

  it('never suggests installing a first-party package that is planned but not published', () => {
    const planned = [...FIRST_PARTY_PACKAGES.env, { id: 'webarena', published: false }];
    const near = adviseMissingPackage('env', 'webaren', [], planned);
    expect(near.sentences.join(' ')).toContain('Did you mean "webarena"? @skillopt/env-webarena is planned but not published yet.');
    expect(near.sentences.join(' ')).not.toContain('npm install');
    const exact = adviseMissingPackage('env', 'webarena', [], planned);
    expect(exact.sentences.join(' ')).toContain('@skillopt/env-webarena is a planned first-party env that is not published yet');
    expect(exact.sentences.join(' ')).not.toContain('npm install');
    expect(exact).not.toHaveProperty('installCommand');
  });

  it('suggests the npm install of @skillopt/env-alfworld, now that it is published', async () => {
    const near = await failureOf(resolverFor().resolveEnvironmentPackage('alfworl'));
    expect(near.details).toMatchObject({ didYouMean: 'alfworld', installCommand: 'npm install @skillopt/env-alfworld' });
  });

  it('words the npm install of a name near nothing as a third-party guess', async () => {
    const error = await failureOf(resolverFor().resolveEnvironmentPackage('my-benchmark'));
    expect(error.message).toContain("SkillOpt's own envs are searchqa, livemath, docvqa, officeqa, spreadsheetbench and alfworld.");
    expect(error.message).toContain(
      'If it is a third-party package, install it in your project under its published name, e.g. npm install skillopt-env-my-benchmark',
    );
    expect(error.details).not.toHaveProperty('installCommand');
    expect(error.details).not.toHaveProperty('didYouMean');
    const ours = await failureOf(resolverFor().resolveEnvironmentPackage('@skillopt/env-unknown-bench'));
    expect(ours.message).toContain('SkillOpt publishes no env package named @skillopt/env-unknown-bench.');
    expect(ours.message).not.toContain('npm install');
  });

  it('finds a package being developed by its own name from inside it (self-reference)', async () => {
    const ownPackage = path.join(root, 'skillopt-env-mine');
    await writeFixturePackage(ownPackage, 'skillopt-env-mine', { id: 'mine' });
    await mkdir(path.join(ownPackage, 'configs'), { recursive: true });
    const resolved = await resolverFor({ workingDirectory: path.join(ownPackage, 'configs') }).resolveEnvironmentPackage('mine');
    expect(resolved).toMatchObject({ packageName: 'skillopt-env-mine', packageDirectory: ownPackage });
  });

  it('does not mistake an unrelated package of the same short name for a backend', async () => {
    await mkdir(path.join(project, 'node_modules', 'openai'), { recursive: true });
    await writeFile(path.join(project, 'node_modules', 'openai', 'package.json'), '{"name": "openai", "main": "index.js"}');
    await writeFile(path.join(project, 'node_modules', 'openai', 'index.js'), 'exports.OpenAI = class {};');
    const error = await failureOf(resolverFor().resolveBackendPackage('openai'));
    expect(error.code).toBe(ERROR_CODES.packageNotFound);
    expect(error.message).toMatch(/A package named openai is installed .* but is not a backend package: its `manifest` export is missing/);
    expect(error.message).toContain('npm install @skillopt/backends-openai');
  });

  it('says what is wrong with an invalid package', async () => {
    await installIn(project, '@skillopt/env-broken', { withFactory: false });
    await installIn(project, '@skillopt/env-old', { specificationVersion: 'v0' });
    await installIn(project, '@skillopt/env-wrong-kind', { kind: 'backend' });
    const broken = await failureOf(resolverFor().resolveEnvironmentPackage('broken'));
    expect(broken.code).toBe('package-invalid');
    expect(broken.message).toMatch(/@skillopt\/env-broken .* is not a usable env package: it does not export a `createEnvironment` function/);
    const old = await failureOf(resolverFor().resolveEnvironmentPackage('old'));
    expect(old.code).toBe(ERROR_CODES.specificationUnsupported);
    expect(old.message).toContain('declares package specification "v0"');
    const wrongKind = await failureOf(resolverFor().resolveEnvironmentPackage('wrong-kind'));
    expect(wrongKind.message).toContain('is not an env manifest');
  });

  it('reports a package that fails to load', async () => {
    const directory = path.join(project, 'node_modules', '@skillopt', 'env-throws');
    await mkdir(directory, { recursive: true });
    await writeFile(path.join(directory, 'package.json'), '{"name": "@skillopt/env-throws", "main": "index.cjs"}');
    await writeFile(path.join(directory, 'index.cjs'), 'throw new Error("boom at load");');
    const error = await failureOf(resolverFor().resolveEnvironmentPackage('throws'));
    expect(error.code).toBe('package-invalid');
    expect(error.message).toContain('failed to load: boom at load');
  });

  it('picks the entry from package.json exports by condition and accepts a default export', async () => {
    const directory = path.join(project, 'node_modules', '@skillopt', 'env-dual');
    await writeFixturePackage(directory, '@skillopt/env-dual', {
      id: 'dual',
      entryName: 'dist/index.cjs',
      exportsField: { '.': { import: './dist/index.mjs', require: './dist/index.cjs' }, './package.json': './package.json' },
    });
    await writeFile(path.join(directory, 'dist', 'index.mjs'), 'export const manifest = {};');
    const imported: string[] = [];
    const viaRequire = await resolverFor({
      importModule: (_url, file) => {
        imported.push(file);
        return Promise.resolve(require(file));
      },
    }).resolveEnvironmentPackage('dual');
    expect(viaRequire.entryFile).toBe(path.join(directory, 'dist', 'index.cjs'));

    // With the default conditions the ES module entry is chosen; a module whose exports sit under
    // `default` (CommonJS seen from import()) is accepted.
    const esmResolver = createPackageResolver({
      workingDirectory: project,
      importModule: (url, file) => {
        imported.push(url);
        const real = require(file.replace(/index\.mjs$/, 'index.cjs'));
        return Promise.resolve({ default: real });
      },
    });
    const viaImport = await esmResolver.resolveEnvironmentPackage('dual');
    expect(viaImport.entryFile).toBe(path.join(directory, 'dist', 'index.mjs'));
    expect(viaImport.module.manifest.id).toBe('dual');
    expect(imported.at(-1)).toMatch(/^file:\/\/.*index\.mjs$/);
  });
});
