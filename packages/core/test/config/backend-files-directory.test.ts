import path from 'node:path';
import { z } from 'zod';
import type { PackageManifest } from '@skillopt/contract';
import { backendSectionFor } from '../../src/index';
import { backendManifest } from './stub-packages';

// A backend that keeps files between a run's processes names the key of its folder
// (`filesDirectoryKey`); run setup sets an unset one to `<the run's folder>/<id>`, where the
// run's next process (a resume, a Sleep command run again) finds the files.

const keeper: PackageManifest<'backend'> = {
  ...backendManifest('keeper', z.strictObject({ folder: z.string().optional(), model: z.string().default('keeper') })),
  filesDirectoryKey: 'folder',
};
const runDirectory = path.join(path.sep, 'work', 'runs', 'first');

describe("a backend's folder in the run", () => {
  it("is <the run's folder>/<id> when the section leaves the key unset", () => {
    expect(backendSectionFor({ backends: {} }, keeper, runDirectory)).toEqual({ folder: path.join(runDirectory, 'keeper'), model: 'keeper' });
    expect(backendSectionFor({ backends: { keeper: { model: 'big' } } }, keeper, runDirectory)).toEqual({
      folder: path.join(runDirectory, 'keeper'),
      model: 'big',
    });
  });

  it('is the folder the section names, whatever the run', () => {
    expect(backendSectionFor({ backends: { keeper: { folder: 'mine' } } }, keeper, runDirectory)).toEqual({ folder: 'mine', model: 'keeper' });
  });

  it("is left to the package without a run's folder, and never set for a package that names no key", () => {
    expect(backendSectionFor({ backends: {} }, keeper)).toEqual({ model: 'keeper' });
    const plain = backendManifest('plain', z.strictObject({ model: z.string().default('plain') }));
    expect(backendSectionFor({ backends: {} }, plain, runDirectory)).toEqual({ model: 'plain' });
  });
});
