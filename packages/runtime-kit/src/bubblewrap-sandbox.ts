import { mkdtemp, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bubblewrapArguments, SANDBOX_TOOLS } from './bubblewrap-arguments.js';
import { changeTreeOwner } from './change-tree-owner.js';
import { findExecutable, isExecutableFile } from './find-executable.js';
import { invalidOption, requirePositiveInteger } from './invalid-option.js';
import { runProcess } from './run-process.js';
import { type Sandbox, type SandboxRunRequest, type SandboxRunResult, sandboxEnvironment } from './sandbox.js';
import { describeLimits, limitsReached, resolveSandboxLimits, type SandboxLimits } from './sandbox-limits.js';
import { sandboxUnavailable } from './sandbox-unavailable.js';
import { isUserIdMapped } from './user-namespace-mapping.js';

export interface BubblewrapSandboxOptions {
  /** The `bwrap` executable. Default: `bwrap` on this process's PATH, else /usr/bin/bwrap. */
  bubblewrapPath?: string | undefined;
  /**
   * The uid the run has when this process is root (and that uid exists in its user namespace).
   * Default 65534 (`nobody`). Ignored otherwise: the run keeps the caller's uid.
   */
  userId?: number | undefined;
  /** The gid likewise. Default 65534 (`nogroup`). */
  groupId?: number | undefined;
  /** Limits of every run, on top of `DEFAULT_SANDBOX_LIMITS`; a request's own limits go on top of these. */
  limits?: Partial<SandboxLimits> | undefined;
}

const NOBODY = 65534;
const INSTALL_REMEDY = 'Install it: `apt-get install -y bubblewrap` (Debian, Ubuntu), `dnf install -y bubblewrap` (Fedora), `apk add bubblewrap` (Alpine).';
const USER_NAMESPACE_REMEDY =
  'Allow unprivileged user namespaces: `sysctl -w kernel.unprivileged_userns_clone=1` (older Debian and Ubuntu), `sysctl -w user.max_user_namespaces=15000`, ' +
  'or on Ubuntu 23.10 and later `sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`; in a container, start it with user namespaces allowed (Docker: `--security-opt seccomp=unconfined --security-opt apparmor=unconfined`, or `--privileged`).';
// bubblewrap's messages when the kernel refuses it a namespace or a mount.
const NAMESPACE_REFUSED = /namespace|uid map/i;

/**
 * A sandbox that runs each command in bubblewrap: no network (unless asked), a read-only system,
 * a private /tmp, only the work directory writable and nothing else of the host's files visible,
 * an environment of the request's variables alone, an unprivileged user, limits on processes,
 * memory, file size and output, and a wall-clock kill of the whole tree. It checks once that all
 * this works here, with a trial run, and rejects with a `sandbox-unavailable` SkillOptError saying
 * why and how to fix it when it does not.
 */
export async function createBubblewrapSandbox(options: BubblewrapSandboxOptions = {}): Promise<Sandbox> {
  const userId = options.userId ?? NOBODY;
  const groupId = options.groupId ?? NOBODY;
  requirePositiveInteger('userId', userId);
  requirePositiveInteger('groupId', groupId);
  const defaultLimits = resolveSandboxLimits(options.limits);
  const bubblewrapPath = locateBubblewrap(options.bubblewrapPath);
  const asRoot = process.getuid?.() === 0 && isUserIdMapped(userId);
  const requiredTools = asRoot ? Object.values(SANDBOX_TOOLS) : [SANDBOX_TOOLS.prlimit];
  const missingTool = requiredTools.find((tool) => !isExecutableFile(tool));
  if (missingTool !== undefined)
    throw sandboxUnavailable({ reason: `${missingTool} is missing`, remedy: 'Install util-linux, which provides it: `apt-get install -y util-linux`.' });

  const version = await bubblewrapVersion(bubblewrapPath);
  const runUserId = asRoot ? userId : (process.getuid?.() ?? userId);

  const run = async (request: SandboxRunRequest): Promise<SandboxRunResult> => {
    const limits = resolveSandboxLimits(defaultLimits, request.limits);
    const workDirectory = path.resolve(request.workDirectory);
    await requireExisting(workDirectory, 'workDirectory', true);
    const readOnlyPaths = (request.readOnlyPaths ?? []).map((readOnlyPath) => path.resolve(readOnlyPath));
    for (const readOnlyPath of readOnlyPaths) await requireExisting(readOnlyPath, 'readOnlyPaths', false);
    const readWritePaths = (request.readWritePaths ?? []).map((readWritePath) => path.resolve(readWritePath));
    for (const readWritePath of readWritePaths) await requireExisting(readWritePath, 'readWritePaths', true);
    if (asRoot) for (const directory of [workDirectory, ...readWritePaths]) await changeTreeOwner(await realpath(directory), userId, groupId);
    const result = await runProcess({
      command: bubblewrapPath,
      args: bubblewrapArguments({
        mode: asRoot ? 'as-root' : 'as-caller',
        userId,
        groupId,
        workDirectory,
        readWritePaths,
        readOnlyPaths,
        network: request.network ?? 'none',
        limits,
        command: request.command,
        args: request.args ?? [],
      }),
      // The variables reach the command through bwrap, setpriv and prlimit, which all pass their
      // environment on, rather than on bwrap's command line, which every user of the host can read.
      allowedEnvironmentVariables: [],
      extraEnvironmentVariables: sandboxEnvironment({ environment: request.environment, workDirectory }),
      timeoutMs: limits.timeoutMs,
      maxOutputBytes: limits.outputBytes,
      signal: request.signal,
      provider: 'sandbox',
      ...(request.stdin === undefined ? {} : { stdin: request.stdin }),
      ...(request.onStdoutLine === undefined ? {} : { onStdoutLine: request.onStdoutLine }),
      ...(request.terminationGraceMs === undefined ? {} : { terminationGraceMs: request.terminationGraceMs }),
      ...(request.abortGraceMs === undefined ? {} : { abortGraceMs: request.abortGraceMs }),
    });
    return { ...result, limitsReached: limitsReached(result) };
  };

  await trialRun(run, runUserId, bubblewrapPath);
  const user = asRoot ? `uid ${runUserId} (dropped from root with setpriv)` : `uid ${runUserId} (this process's) in a user namespace`;
  return {
    kind: 'bubblewrap',
    description:
      `bubblewrap ${version} (${bubblewrapPath}): runs as ${user}, no network unless shared, read-only system, only the work directory writable; ` +
      `limits ${describeLimits(defaultLimits)}`,
    run,
  };
}

function locateBubblewrap(configured: string | undefined): string {
  if (configured !== undefined) {
    if (!isExecutableFile(configured)) throw sandboxUnavailable({ reason: `bubblewrap was not found at ${configured}`, remedy: INSTALL_REMEDY });
    return configured;
  }
  const found = findExecutable('bwrap', process.env.PATH) ?? (isExecutableFile('/usr/bin/bwrap') ? '/usr/bin/bwrap' : undefined);
  if (found === undefined) throw sandboxUnavailable({ reason: 'bubblewrap (bwrap) was not found on the PATH nor at /usr/bin/bwrap', remedy: INSTALL_REMEDY });
  return found;
}

async function bubblewrapVersion(bubblewrapPath: string): Promise<string> {
  const result = await runProcess({ command: bubblewrapPath, args: ['--version'], allowedEnvironmentVariables: [], timeoutMs: 10_000 }).catch(
    (error: unknown) => {
      throw sandboxUnavailable({ reason: `${bubblewrapPath} --version could not be run`, remedy: INSTALL_REMEDY, cause: error });
    },
  );
  const version = /\d+\.\d+(\.\d+)?/.exec(result.stdout)?.[0];
  if (result.exitCode !== 0 || version === undefined)
    throw sandboxUnavailable({
      reason: `${bubblewrapPath} --version did not print a bubblewrap version (${lastLine(result.stderr || result.stdout)})`,
      remedy: INSTALL_REMEDY,
    });
  return version;
}

/** One run of `id -u` the way every run goes, so a machine that cannot sandbox is found before any generated code is given to it. */
async function trialRun(run: (request: SandboxRunRequest) => Promise<SandboxRunResult>, expectedUserId: number, bubblewrapPath: string): Promise<void> {
  const workDirectory = await mkdtemp(path.join(tmpdir(), 'skillopt-sandbox-trial-'));
  try {
    const result = await run({ command: '/usr/bin/id', args: ['-u'], workDirectory, limits: { timeoutMs: 30_000 } });
    if (result.exitCode === 0 && result.stdout.trim() === String(expectedUserId)) return;
    const output = lastLine(result.stderr || result.stdout);
    const reason = result.timedOut
      ? 'a trial run did not finish within 30 s'
      : `a trial run of ${bubblewrapPath} failed (exit ${result.exitCode ?? result.signal}: ${output})`;
    throw sandboxUnavailable({
      reason,
      remedy: NAMESPACE_REFUSED.test(output)
        ? USER_NAMESPACE_REMEDY
        : 'Run the trial by hand to see why: `bwrap --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib --symlink usr/lib64 /lib64 --unshare-all -- /usr/bin/id -u`.',
    });
  } finally {
    await rm(workDirectory, { recursive: true, force: true });
  }
}

async function requireExisting(target: string, name: string, mustBeDirectory: boolean): Promise<void> {
  const status = await stat(target).catch(() => undefined);
  if (status === undefined) throw invalidOption(`${name}: ${target} does not exist`);
  if (mustBeDirectory && !status.isDirectory()) throw invalidOption(`${name}: ${target} is not a directory`);
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1] ?? '';
}
