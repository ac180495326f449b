import type { ScaffoldContext } from './context.js';

/**
 * package.json of the env package. Plain ES modules, no build step: `src/index.js` is the entry for
 * `import` and, on Node 20.19 and later (require of ES modules), for `require` too. The tests run
 * Jest on the ES modules natively (`--experimental-vm-modules`, no transform), so Jest is the only
 * devDependency and `npm test` works right after `npm install`.
 */
export function buildPackageJson(context: ScaffoldContext): string {
  const manifest = {
    name: context.packageName,
    version: '0.1.0',
    description: `A SkillOpt environment: ${context.name}, short questions answered in an <answer> tag, scored by exact match and token F1.`,
    keywords: ['skillopt', 'skillopt-env', 'llm', 'benchmark'],
    license: 'MIT',
    type: 'module',
    exports: {
      '.': './src/index.js',
      './package.json': './package.json',
    },
    files: ['src', 'data', 'skills', 'README.md'],
    engines: { node: '>=20.19.0' },
    scripts: {
      test: 'node --experimental-vm-modules --disable-warning=ExperimentalWarning node_modules/jest/bin/jest.js',
    },
    jest: {
      testEnvironment: 'node',
      transform: {},
    },
    dependencies: {
      '@skillopt/contract': context.versions.contract,
      '@skillopt/env-kit': context.versions.envKit,
      zod: context.versions.zod,
    },
    devDependencies: {
      jest: context.versions.jest,
    },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
