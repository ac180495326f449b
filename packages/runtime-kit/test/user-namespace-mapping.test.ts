import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isUserIdMapped } from '../src/user-namespace-mapping';

const folder = mkdtempSync(path.join(tmpdir(), 'uid-map-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function uidMap(text: string): string {
  const file = path.join(folder, `map-${Math.random()}`);
  writeFileSync(file, text);
  return file;
}

describe('isUserIdMapped', () => {
  it('finds nobody in the initial namespace and not in one that maps root alone (unshare -r)', () => {
    expect(isUserIdMapped(65534, uidMap('         0          0 4294967295\n'))).toBe(true);
    expect(isUserIdMapped(65534, uidMap('         0          0          1\n'))).toBe(false);
    expect(isUserIdMapped(0, uidMap('         0          0          1\n'))).toBe(true);
    expect(isUserIdMapped(65534, uidMap('0 100000 65536\n'))).toBe(true);
    expect(isUserIdMapped(65536, uidMap('0 100000 65536\n'))).toBe(false);
  });

  it('assumes a mapping where the kernel has no uid_map to read', () => {
    expect(isUserIdMapped(65534, path.join(folder, 'missing'))).toBe(true);
  });
});
