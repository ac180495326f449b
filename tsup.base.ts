import { defineConfig, type Options } from 'tsup';

/**
 * The build of every published library: ESM and CommonJS with declarations for both, one file per
 * entry. `ignoreDeprecations` silences TypeScript 6's complaint about the `baseUrl` tsup injects
 * into its declaration build (docs/toolchain.md, tsup's row) without touching the tsconfig.
 */
export function libraryBuild(entry: string[], overrides: Options = {}) {
  return defineConfig({
    entry,
    format: ['esm', 'cjs'],
    dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
    sourcemap: true,
    clean: true,
    target: 'node20',
    ...overrides,
  });
}
