import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { backendSectionFor } from '@skillopt/core';
import { createBackend, type HandoffBackendConfig, manifest } from '../src/index';

// Where the requests wait when the config names no folder: run setup (core's backendSectionFor,
// as prepareRun and prepareChatModel call it) puts them in the run's own folder, where the run's
// next process finds them; only a command without one falls back to the working directory.

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'handoff-backend-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The backend run setup creates from `section`, for a run whose folder is `filesDirectory` (none: a command without one). */
const backendOf = (section: Record<string, unknown>, filesDirectory?: string) =>
  createBackend(backendSectionFor({ backends: { handoff: section } }, manifest, filesDirectory) as HandoffBackendConfig, { workingDirectory: root });

describe('the handoff folder', () => {
  it('is handoff/ in the run folder run setup gives, when the config names none', () => {
    const runDirectory = path.join(root, 'runs', 'first');
    expect(backendOf({}, runDirectory).directory).toBe(path.join(runDirectory, 'handoff'));
  });

  it('is the configured directory whatever the run folder, a relative one read from the working directory', () => {
    expect(backendOf({ directory: 'answers-here' }, path.join(root, 'run')).directory).toBe(path.join(root, 'answers-here'));
    expect(backendOf({ directory: path.join(root, 'elsewhere') }, path.join(root, 'run')).directory).toBe(path.join(root, 'elsewhere'));
  });

  it('is skillopt-handoff in the working directory for a command without a run folder (skillopt eval) and a call of its own', () => {
    expect(backendOf({}).directory).toBe(path.join(root, 'skillopt-handoff'));
    expect(createBackend({}, { workingDirectory: root }).directory).toBe(path.join(root, 'skillopt-handoff'));
  });

  it('has no default in the schema, so run setup can tell an unset directory from a chosen one', () => {
    expect(manifest.filesDirectoryKey).toBe('directory');
    expect(manifest.configSchema.safeParse({})).toEqual({ success: true, data: { model: 'handoff' } });
  });
});
