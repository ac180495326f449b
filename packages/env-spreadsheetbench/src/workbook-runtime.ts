import { chmod, copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import {
  copyWorkspaceFile,
  createBubblewrapSandbox,
  createUnsandboxedRunner,
  type Sandbox,
  type SandboxLimits,
  workspaceFileProblem,
} from '@skillopt/runtime-kit';
import type { SpreadsheetBenchConfig } from './config.js';
import { findPythonInterpreter, type PythonInterpreter } from './python-interpreter.js';
import runScriptSource from './python/run_script.py';
import workbookToolsSource from './python/workbook_tools.py';

/** How one generated script's run on one test case went. */
export interface ScriptRun {
  /** The script finished (exit 0) and wrote its output workbook, a regular file of its own. */
  ok: boolean;
  /** The copy of the output workbook, outside the folder the script ran in: what the evaluator reads. */
  outputPath: string;
  timedOut: boolean;
  exitCode: number | null;
  /** Why it failed, for the model and the analyst: the output's tail (untrusted text, cut), or what was missing. */
  error?: string;
}

/** One interpreter run: its status and its combined output (untrusted text). */
export interface PythonRun {
  exitCode: number | null;
  timedOut: boolean;
  output: string;
}

/** Where the generated code and the evaluator run, and with what. */
export interface WorkbookRuntime {
  readonly interpreter: PythonInterpreter;
  readonly sandbox: Pick<Sandbox, 'kind' | 'description'>;
  /**
   * Sends one request to the workbook tools (versions, preview, evaluate, describe). The workbooks
   * it names are listed in `files`: each is copied into the run's own folder and the request is
   * rewritten to name the copy, so the sandbox's user needs no access to the data's folders.
   * Each is a file of the trusted side, followed by path: an answer, or the copy of an output
   * `runScript` (or the agent mode) made as data; never a file in a folder a sandbox wrote in.
   */
  callTool<Reply>(request: Record<string, unknown>, files: readonly string[], signal?: AbortSignal): Promise<Reply>;
  /**
   * Runs a script on a copy of `input` in `directory`'s `work` folder (created, and holding
   * nothing else), with INPUT_PATH and OUTPUT_PATH defined, inside the sandbox; then copies its
   * output, read as data, to `directory/output.xlsx`, beyond the sandbox's reach. An output that is
   * not a regular file the script wrote there (a link, a FIFO, a hard link, too large) fails the
   * run with the reason.
   */
  runScript(options: { code: string; input: string; directory: string; timeoutMs: number; signal?: AbortSignal }): Promise<ScriptRun>;
  /** Runs the interpreter with `args` in `directory` (which must exist), inside the sandbox: the ReAct mode's `bash` tool. */
  runPython(options: { args: readonly string[]; directory: string; timeoutMs: number; signal?: AbortSignal }): Promise<PythonRun>;
  /** Removes the helper scripts' folder. */
  dispose(): Promise<void>;
}

/** The folder of `directory` a script runs in: the only one the sandbox sees. */
const SCRIPT_WORK_FOLDER = 'work';
const OUTPUT_FILE = 'output.xlsx';

/** How much of a failed script's output the model and the analyst see. */
const SCRIPT_ERROR_CHARACTERS = 3000;

// The sandbox sets PATH, HOME (the work directory), TMPDIR and LANG; nothing of this process's
// environment reaches a script. Threads count against the sandbox's process limit, and numpy's
// BLAS would start one per core on import (pandas imports it): one thread each is plenty here.
const SCRIPT_ENVIRONMENT = {
  PYTHONIOENCODING: 'utf-8',
  PYTHONDONTWRITEBYTECODE: '1',
  OPENBLAS_NUM_THREADS: '1',
  OMP_NUM_THREADS: '1',
  MKL_NUM_THREADS: '1',
};

function sandboxLimits(config: SpreadsheetBenchConfig): Partial<SandboxLimits> {
  return {
    memoryBytes: config.sandbox_memory_mb * 1024 * 1024,
    processes: config.sandbox_max_processes,
    fileSizeBytes: config.sandbox_max_file_mb * 1024 * 1024,
    outputBytes: config.sandbox_max_output_kb * 1024,
  };
}

function tail(text: string, characters: number): string {
  return text.length <= characters ? text : `[... ${text.length - characters} characters cut]\n${text.slice(-characters)}`;
}

/** Removes lines that assign INPUT_PATH or OUTPUT_PATH: the runner defines them, and a hard-coded path would point elsewhere. */
export function withoutPathAssignments(code: string): string {
  return code
    .split('\n')
    .filter((line) => !/^\s*(?:INPUT_PATH|OUTPUT_PATH)\s*(?::[^=]*)?=(?!=)/.test(line))
    .join('\n');
}

async function writeHelperScripts(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), 'skillopt-spreadsheet-tools-'));
  await writeFile(path.join(directory, 'workbook_tools.py'), workbookToolsSource);
  await writeFile(path.join(directory, 'run_script.py'), runScriptSource);
  // The sandbox's unprivileged user reads them.
  await chmod(directory, 0o755);
  return directory;
}

/**
 * Finds the interpreter, sets up the sandbox (or, with `sandbox: unsandboxed`, says loudly that
 * there is none) and proves both work by asking the workbook tools for their versions inside it.
 * Any failure is a clear error before the run starts: the env never runs generated code outside a
 * sandbox it was not told to do without.
 */
export async function createWorkbookRuntime(config: SpreadsheetBenchConfig): Promise<WorkbookRuntime> {
  const interpreter = await findPythonInterpreter({ configured: config.python, requirePandas: config.allow_pandas });
  let sandbox: Sandbox;
  if (config.sandbox === 'unsandboxed') {
    sandbox = createUnsandboxedRunner();
    process.stderr.write('WARNING: env.sandbox is "unsandboxed": SpreadsheetBench runs model-written Python with your privileges, network and files.\n');
  } else {
    try {
      sandbox = await createBubblewrapSandbox();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new SkillOptError({
        code: ERROR_CODES.configInvalid,
        category: 'user',
        message: `spreadsheetbench runs model-written code only in a sandbox, and the sandbox cannot be set up here: ${reason} (to run it unsandboxed anyway, on code you trust, set env.sandbox: unsandboxed)`,
        ...(SkillOptError.isInstance(error) ? { details: { cause: error.toJSON() } } : {}),
        cause: error,
      });
    }
  }
  const helperDirectory = await writeHelperScripts();
  const limits = sandboxLimits(config);
  const interpreterPaths = interpreter.prefixes.filter((prefix) => !(prefix === '/usr' || prefix.startsWith('/usr/')));

  async function callTool<Reply>(request: Record<string, unknown>, files: readonly string[], signal?: AbortSignal): Promise<Reply> {
    const scratch = await mkdtemp(path.join(tmpdir(), 'skillopt-spreadsheet-scratch-'));
    try {
      const copies = new Map<string, string>();
      for (const file of new Set(files)) {
        const copy = path.join(scratch, `${copies.size}${path.extname(file)}`);
        await copyFile(file, copy);
        copies.set(file, copy);
      }
      const staged = JSON.stringify(request, (_key, value: unknown) => (typeof value === 'string' ? (copies.get(value) ?? value) : value));
      const checks = Array.isArray(request.checks) ? request.checks.length : Array.isArray(request.tasks) ? request.tasks.length * 3 : 1;
      const result = await sandbox.run({
        command: interpreter.executable,
        args: [path.join(helperDirectory, 'workbook_tools.py')],
        stdin: staged,
        workDirectory: scratch,
        readOnlyPaths: [helperDirectory, ...interpreterPaths],
        environment: SCRIPT_ENVIRONMENT,
        limits: { ...limits, timeoutMs: 60_000 + 2_000 * checks, outputBytes: 256 * 1024 * 1024 },
        ...(signal === undefined ? {} : { signal }),
      });
      if (result.exitCode !== 0)
        throw new SkillOptError({
          code: ERROR_CODES.processCrashed,
          category: 'internal',
          retryable: result.timedOut,
          message: `the workbook tools (${String(request.command)}) ${result.timedOut ? 'timed out' : `exited with status ${result.exitCode}`} in the ${sandbox.kind} sandbox: ${tail(result.stderr.trim(), 600)}`,
        });
      return JSON.parse(result.stdout) as Reply;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  const runtime: WorkbookRuntime = {
    interpreter,
    sandbox: { kind: sandbox.kind, description: sandbox.description },
    callTool,
    async runPython(options) {
      const result = await sandbox.run({
        command: interpreter.executable,
        args: [...options.args],
        workDirectory: options.directory,
        readOnlyPaths: [helperDirectory, ...interpreterPaths],
        environment: SCRIPT_ENVIRONMENT,
        limits: { ...limits, timeoutMs: options.timeoutMs },
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      const output = `${result.stdout}${result.stdout !== '' && result.stderr !== '' ? '\n' : ''}${result.stderr}`.trim();
      return { exitCode: result.exitCode, timedOut: result.timedOut, output };
    },
    async runScript(options) {
      const workFolder = path.join(options.directory, SCRIPT_WORK_FOLDER);
      await mkdir(workFolder, { recursive: true });
      const inputPath = path.join(workFolder, 'input.xlsx');
      const scriptPath = path.join(workFolder, 'solution.py');
      await copyFile(options.input, inputPath);
      await writeFile(scriptPath, withoutPathAssignments(options.code), { mode: 0o644 });
      const run = await runtime.runPython({
        args: [path.join(helperDirectory, 'run_script.py'), scriptPath, inputPath, path.join(workFolder, OUTPUT_FILE)],
        directory: workFolder,
        timeoutMs: options.timeoutMs,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      const outputPath = path.join(options.directory, OUTPUT_FILE);
      const common = { outputPath, timedOut: run.timedOut, exitCode: run.exitCode };
      if (run.timedOut) return { ...common, ok: false, error: `the script was stopped after ${options.timeoutMs / 1000} s (time limit)` };
      if (run.exitCode !== 0)
        return {
          ...common,
          ok: false,
          error: run.output === '' ? `the script ended with status ${run.exitCode ?? 'killed'}` : tail(run.output, SCRIPT_ERROR_CHARACTERS),
        };
      // The run has ended, and every process of it with it (bubblewrap takes its PID namespace
      // down when it exits), so nothing changes the output while it is checked and copied.
      try {
        await copyWorkspaceFile(workFolder, OUTPUT_FILE, outputPath, { maxBytes: config.sandbox_max_file_mb * 1024 * 1024, name: 'the output' });
      } catch (error) {
        const problem = workspaceFileProblem(error);
        if (problem === undefined) throw error;
        return { ...common, ok: false, error: problem === 'missing' ? 'the script finished but wrote no workbook at OUTPUT_PATH' : (error as Error).message };
      }
      return { ...common, ok: true };
    },
    dispose: () => rm(helperDirectory, { recursive: true, force: true }),
  };
  try {
    await callTool({ command: 'versions' }, []);
  } catch (error) {
    await runtime.dispose();
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `spreadsheetbench cannot run ${interpreter.executable} in the ${sandbox.kind} sandbox: ${error instanceof Error ? error.message : String(error)} (set env.python to an interpreter the sandbox can reach, e.g. /usr/bin/python3)`,
      cause: error,
    });
  }
  return runtime;
}
