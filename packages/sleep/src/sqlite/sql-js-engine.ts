import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { SqlJsStatic } from 'sql.js';

// Resolved from this module's own location, so the package's wasm file is found whether this runs
// from dist (ESM, or CommonJS through tsup's import.meta shim) or from source under Jest (swc
// turns import.meta.url into this file's URL), wherever the working directory is.
const requireFromHere = createRequire(import.meta.url);

let engine: Promise<SqlJsStatic> | undefined;

/**
 * SQLite compiled to WebAssembly (sql.js), loaded once per process. The wasm binary is read from
 * sql.js's own package and handed over as bytes: sql.js then fetches nothing and needs no path of
 * its own (docs/adr/0015-sqlite-through-sql-js.md).
 */
export function sqliteEngine(): Promise<SqlJsStatic> {
  engine ??= (async () => {
    // Imported here, not at the top: a harvest that reads no SQLite source never loads sql.js.
    const { default: initSqlJs } = await import('sql.js');
    const wasmBinary = await readFile(requireFromHere.resolve('sql.js/dist/sql-wasm.wasm'));
    return initSqlJs({ wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength) as ArrayBuffer });
  })();
  // A failed load is not cached: the next harvest tries again.
  engine.catch(() => {
    engine = undefined;
  });
  return engine;
}
