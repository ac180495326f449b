export * from './executor-package.js';
export * from './known-package-names.js';
export * from './installed-package-names.js';
export * from './package-candidates.js';
export * from './package-entry.js';
export * from './package-resolver.js';
export * from './specification-versions.js';
