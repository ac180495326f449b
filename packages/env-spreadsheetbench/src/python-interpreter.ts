import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { runProcess } from '@skillopt/runtime-kit';

/** A Python that can run the generated scripts and the evaluator, and what it has. */
export interface PythonInterpreter {
  /** The interpreter's own path (`sys.executable`), so a shim on PATH is not what the sandbox runs. */
  executable: string;
  /** Folders the interpreter's standard library and packages live in (`sys.prefix`, `sys.base_prefix`). */
  prefixes: string[];
  pythonVersion: string;
  openpyxlVersion: string;
  /** Null when pandas is not installed (allowed only when the prompt does not offer it). */
  pandasVersion: string | null;
}

/** Tried in order when `env.python` is not set: Debian's system Python first, since one earlier on PATH may lack openpyxl. */
export const DEFAULT_PYTHON_CANDIDATES = ['/usr/bin/python3', 'python3', 'python'] as const;

const PROBE = [
  'import json, sys',
  'info = {"executable": sys.executable, "prefixes": sorted({sys.prefix, sys.base_prefix}), "python": sys.version.split()[0]}',
  'for name in ("openpyxl", "pandas"):',
  '    try:',
  '        info[name] = __import__(name).__version__',
  '    except Exception:',
  '        info[name] = None',
  'print(json.dumps(info))',
].join('\n');

interface ProbeResult {
  candidate: string;
  interpreter?: PythonInterpreter;
  problem?: string;
}

async function probe(candidate: string, requirePandas: boolean): Promise<ProbeResult> {
  let output: string;
  try {
    const result = await runProcess({ command: candidate, args: ['-c', PROBE], timeoutMs: 60_000, provider: 'python' });
    if (result.exitCode !== 0) return { candidate, problem: `exited with status ${result.exitCode}: ${result.stderr.trim().split('\n').at(-1) ?? ''}` };
    output = result.stdout;
  } catch {
    return { candidate, problem: 'not found' };
  }
  let info: { executable: string; prefixes: string[]; python: string; openpyxl: string | null; pandas: string | null };
  try {
    info = JSON.parse(output);
  } catch {
    return { candidate, problem: 'did not answer the probe' };
  }
  const missing = [info.openpyxl === null ? 'openpyxl' : undefined, requirePandas && info.pandas === null ? 'pandas' : undefined].filter(
    (name): name is string => name !== undefined,
  );
  if (missing.length > 0) return { candidate, problem: `${info.executable} lacks ${missing.join(' and ')}` };
  return {
    candidate,
    interpreter: {
      executable: info.executable,
      prefixes: info.prefixes,
      pythonVersion: info.python,
      openpyxlVersion: info.openpyxl as string,
      pandasVersion: info.pandas,
    },
  };
}

/**
 * The interpreter to use: `configured` (a path or a command on PATH) when set, otherwise the first
 * default candidate that imports openpyxl, and pandas when the prompt offers it. None found is a
 * clear error before the run starts, naming what each candidate lacked.
 */
export async function findPythonInterpreter(options: { configured: string; requirePandas: boolean }): Promise<PythonInterpreter> {
  const candidates = options.configured.trim() === '' ? DEFAULT_PYTHON_CANDIDATES : [options.configured.trim()];
  const problems: string[] = [];
  for (const candidate of candidates) {
    const result = await probe(candidate, options.requirePandas);
    if (result.interpreter !== undefined) return result.interpreter;
    problems.push(`${candidate}: ${result.problem}`);
  }
  const modules = options.requirePandas ? 'openpyxl and pandas' : 'openpyxl';
  const remedy =
    options.configured.trim() === ''
      ? `Install them (Debian: apt-get install -y python3-openpyxl${options.requirePandas ? ' python3-pandas' : ''}), or set env.python to an interpreter that has them${options.requirePandas ? ', or set env.allow_pandas: false' : ''}.`
      : `Install ${modules} for ${options.configured}, or set env.python to another interpreter.`;
  throw new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    message: `spreadsheetbench needs a Python that imports ${modules}; none found (${problems.join('; ')}). ${remedy}`,
    details: { candidates: [...candidates], problems },
  });
}
