import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSpreadsheetBenchEnvironment, DEFAULT_PYTHON_CANDIDATES, findPythonInterpreter } from '../src/index';
import { SYSTEM_PYTHON, writeSplit } from './helpers';

const folder = mkdtempSync(path.join(tmpdir(), 'spreadsheetbench-python-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** An interpreter without site-packages (python -S): it lacks openpyxl and pandas. */
function bareInterpreter(): string {
  const file = path.join(folder, 'bare-python3');
  writeFileSync(file, `#!/bin/sh\nexec ${SYSTEM_PYTHON} -S "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('finding the Python', () => {
  it('tries Debian’s system python3 first, since one earlier on PATH may lack openpyxl', () => {
    expect(DEFAULT_PYTHON_CANDIDATES[0]).toBe('/usr/bin/python3');
  });

  it('finds one that imports openpyxl and pandas, and records their versions', async () => {
    const interpreter = await findPythonInterpreter({ configured: '', requirePandas: true });
    expect(interpreter.executable).toMatch(/python3/);
    expect(interpreter.openpyxlVersion).toMatch(/^\d+\.\d+/);
    expect(interpreter.pandasVersion).toMatch(/^\d+\.\d+/);
  });

  it('says what a configured interpreter lacks, and how to fix it, before the run starts', async () => {
    const bare = bareInterpreter();
    await expect(findPythonInterpreter({ configured: bare, requirePandas: true })).rejects.toThrow(
      new RegExp(
        `needs a Python that imports openpyxl and pandas; none found \\(${bare}: .* lacks openpyxl and pandas\\)\\. Install openpyxl and pandas for ${bare}`,
      ),
    );
    await expect(findPythonInterpreter({ configured: path.join(folder, 'no-such-python'), requirePandas: false })).rejects.toThrow(/no-such-python: not found/);
  });

  it('makes loading a split fail with that error, a config error', async () => {
    const environment = createSpreadsheetBenchEnvironment({ split_dir: writeSplit({}), python: bareInterpreter() });
    await expect(environment.loadSplit('train')).rejects.toMatchObject({ code: 'config-invalid', message: expect.stringMatching(/lacks openpyxl/) });
  });
});
