import { randomUUID } from 'node:crypto';
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FAKE_HARNESS_PROGRAM } from './fake-harness-program.js';

/** What the fake harness does in one run; every field is optional (an empty scenario exits 0 at once). */
export interface FakeHarnessScenario {
  /** Lines it prints to stdout, in order: the transcript it replays. Objects are printed as JSON; strings as they are, so a malformed line can be replayed too. */
  transcript?: ReadonlyArray<string | Readonly<Record<string, unknown>>>;
  /** A JSONL file whose lines it prints after `transcript`: a transcript recorded from a real harness. */
  transcriptFile?: string;
  /** A pause after each line, so output arrives over time. */
  lineDelayMs?: number;
  /** A pause after the transcript, before it exits; a long one is a harness that hangs until it is killed. */
  exitDelayMs?: number;
  /** Its exit code (default 0). */
  exitCode?: number;
  /** It ends by killing itself with this signal instead of exiting: a crash. */
  crashSignal?: NodeJS.Signals;
  /** Text it writes to stderr before it ends. */
  stderr?: string;
  /** Variables whose `NAME=value` it writes to stderr, as a careless CLI does in a crash report. */
  echoEnvironment?: readonly string[];
  /** Files it writes into its working directory, as an agent's edits. */
  writeFiles?: ReadonlyArray<{ path: string; content: string }>;
  /** A file where it records what it was given: `{ argv, cwd, stdin, environment (names), files }`. */
  recordInvocationTo?: string;
  /** It ignores SIGTERM, so only the SIGKILL that follows stops it. */
  ignoreTerminate?: boolean;
  /** Paths it tries to read, recorded in the invocation as `probes` (what a confined harness must not see). */
  probePaths?: readonly string[];
  /** A URL it fetches once, recorded in the invocation as `fetched` (its status, or the error). */
  probeUrl?: string;
}

/** What `recordInvocationTo` receives. */
export interface FakeHarnessInvocation {
  argv: string[];
  cwd: string;
  stdin: string;
  /** The names of the variables in its environment, sorted. */
  environment: string[];
  /** The files in its working directory when it started, relative, sorted. */
  files: string[];
  /** Its uid (undefined on Windows). */
  userId?: number;
  /** Its HOME. */
  home?: string;
  /** Each of `probePaths`: whether it exists and whether reading it worked. */
  probes?: Record<string, { exists: boolean; readable: boolean }>;
  /** What fetching `probeUrl` gave: `200`, or the error's code. */
  fetched?: number | string;
}

/** How to start the fake harness: hand `command` and `args` to `runProcess`. */
export interface FakeHarnessCommand {
  command: string;
  args: string[];
}

const PROGRAM_FILE_NAME = 'fake-harness.mjs';

/**
 * Writes the fake harness into `directory` as an executable Node script with a shebang and
 * returns its path. It is a real program: started through `runProcess` it reads stdin, prints,
 * exits and can be killed like any agent CLI.
 */
export async function installFakeHarness(directory: string): Promise<string> {
  const file = path.join(directory, PROGRAM_FILE_NAME);
  await writeFile(file, FAKE_HARNESS_PROGRAM, 'utf8');
  await chmod(file, 0o755);
  return file;
}

/**
 * Installs the fake harness in `directory` (once is enough, again is harmless), writes `scenario`
 * beside it and returns the command line that plays it. On Windows, which has no shebangs, the
 * command is Node itself with the script as its first argument.
 */
export async function prepareFakeHarness(directory: string, scenario: FakeHarnessScenario): Promise<FakeHarnessCommand> {
  const program = await installFakeHarness(directory);
  const scenarioFile = path.join(directory, `scenario-${randomUUID()}.json`);
  await writeFile(scenarioFile, JSON.stringify(scenario), 'utf8');
  return process.platform === 'win32' ? { command: process.execPath, args: [program, scenarioFile] } : { command: program, args: [scenarioFile] };
}
