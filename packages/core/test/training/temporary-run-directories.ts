import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Fresh run directories for a test file, each inside its own temporary folder, all removed after
 * the file's tests: `const runDirectory = temporaryRunDirectories('skillopt-train-')`.
 */
export function temporaryRunDirectories(prefix: string): () => string {
  const folders: string[] = [];
  afterAll(() => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });
  return () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), prefix));
    folders.push(folder);
    return path.join(folder, 'run');
  };
}
