import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeVersionMismatch } from '../src/version-mismatch';
import { runVersions } from '../src/index';

describe('runVersions', () => {
  it("names the run's package versions and specification versions, and a mismatch says what differs", () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-versions-'));
    try {
      writeFileSync(path.join(directory, 'package.json'), JSON.stringify({ version: '2.3.4' }));
      const resolved = (packageName: string) => ({
        kind: 'env',
        requestedName: packageName,
        packageName,
        packageDirectory: directory,
        entryFile: '',
        foundFrom: '',
        module: {},
      });
      const versions = runVersions({
        environmentPackage: resolved('@skillopt/env-searchqa'),
        backendPackages: new Map([['sim', resolved('@skillopt/backends-sim')]]),
        environment: { specificationVersion: 'v1' },
        target: { kind: 'chat', model: { specificationVersion: 'v1' } },
      } as unknown as Parameters<typeof runVersions>[0]);
      expect(versions).toMatchObject({
        '@skillopt/env-searchqa': '2.3.4',
        '@skillopt/backends-sim': '2.3.4',
        'specification of the env': 'v1',
        'specification of the target': 'v1',
      });
      expect(describeVersionMismatch(versions, versions)).toBeUndefined();
      expect(describeVersionMismatch(versions, { ...versions, '@skillopt/backends-sim': '2.3.5' })).toBe(
        "this worker's versions differ from the run's (@skillopt/backends-sim 2.3.4 on the trainer, 2.3.5 on this worker): install the trainer's versions on the worker",
      );
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
