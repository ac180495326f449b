import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Flags } from '@oclif/core';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { SkillOptCommand } from '../base-command.js';
import { DEFAULT_DASHBOARD_PORTS, listenOnDashboardPort } from '../dashboard/dashboard-port.js';
import { startDashboardServer } from '../dashboard/dashboard-server.js';
import { DASHBOARD_TOKEN_VARIABLE, dashboardTokenOf } from '../dashboard/dashboard-token.js';
import { shippedDashboardFolder } from '../dashboard/shipped-page.js';
import { writeLine, writeWarning } from '../inspection/write-output.js';
import { jsonLine } from '../output/json-lines.js';
import { isLoopbackHost } from '../serving/loopback-host.js';
import { waitForStopSignal } from '../serving/stop-signal.js';

const DEFAULT_RUNS_FOLDER = 'outputs';

export default class Dashboard extends SkillOptCommand {
  static override enableJsonFlag = true;
  static override summary = 'Watch your runs in the browser: a read-only page of the runs under a folder, live while they train.';
  static override description = [
    'Serves the dashboard on 127.0.0.1: the runs under --runs (default outputs/, where `skillopt train` writes), each run with its scores, cost and calls per step, the skill versions and their diffs, and each step with what the optimizer proposed and what the gate decided. A run that is training appears and updates as it goes; one whose process was killed shows as stopped. It only reads the run directories, through the same reader as `skillopt runs`, and has no endpoint that writes. The page and its read-only JSON API are described in docs/dashboard.md.',
    `Without --port it listens on ${DEFAULT_DASHBOARD_PORTS.first}, or the next free port up to ${DEFAULT_DASHBOARD_PORTS.last} when that one is busy, and says so; a busy --port is an error. --host other than a loopback address (127.0.0.1, ::1, localhost) makes the runs readable from that network, so every request then needs a token: the printed URL carries it (?token=…), and the page keeps it in a cookie. The token is random, or ${DASHBOARD_TOKEN_VARIABLE} from the environment.`,
    'It runs until SIGINT (Ctrl-C) or SIGTERM, then closes its connections and exits 0.',
  ].join('\n\n');
  static override examples = [
    { description: 'The runs under outputs/, on http://127.0.0.1:5230/ (or the next free port)', command: '<%= config.bin %> dashboard' },
    { description: 'Another folder of runs (or one run directory), on any free port', command: '<%= config.bin %> dashboard --runs runs --port 0' },
    { description: 'For a script: one JSON line with the URL once it listens', command: '<%= config.bin %> dashboard --port 0 --json' },
    {
      description: 'Readable from your network, with the token in the printed URL',
      command: '<%= config.bin %> dashboard --host 0.0.0.0',
    },
  ];
  static override flags = {
    runs: Flags.string({ description: `the folder holding run directories, or one run directory (default: ${DEFAULT_RUNS_FOLDER})` }),
    port: Flags.integer({
      description: `port to listen on; 0 = any free port (default: ${DEFAULT_DASHBOARD_PORTS.first}, or the next free one up to ${DEFAULT_DASHBOARD_PORTS.last})`,
      min: 0,
      max: 65_535,
    }),
    host: Flags.string({ description: 'address to bind; anything but a loopback address turns the token on', default: '127.0.0.1' }),
    json: Flags.boolean({
      description: 'once listening, print {"type":"dashboard-started","url","host","port","runsFolder"} as one line on stdout (and nothing else), then serve',
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Dashboard);
    const runsFolder = await runsFolderOf(flags.runs, process.cwd());
    const staticFolder = shippedDashboardFolder(this.config.root);
    const loopback = isLoopbackHost(flags.host);
    const token = loopback ? undefined : dashboardTokenOf(process.env);
    const start = (port: number) => startDashboardServer({ runsFolder, staticFolder, host: flags.host, port, ...(token === undefined ? {} : { token }) });

    const { server, note } = await listenOnDashboardPort({ host: flags.host, port: flags.port, listen: start });
    if (note !== undefined) this.note(note);
    // Listeners first, so a signal that arrives while the URL is printed still closes the server.
    const stopped = waitForStopSignal();
    try {
      const url = token === undefined ? server.url : `${server.url}?token=${encodeURIComponent(token)}`;
      if (!loopback)
        writeWarning(
          `serving on ${flags.host}, which is not a loopback address: anyone on that network who has the URL below (with its token) can read these runs.`,
        );
      if (this.jsonEnabled()) {
        // Not through the redaction of logJson: this line is where the token is given, by design.
        process.stdout.write(`${JSON.stringify({ type: 'dashboard-started', url, host: server.host, port: server.port, runsFolder })}\n`);
      } else {
        writeLine(`Dashboard of ${displayPath(runsFolder)}: ${url}`);
        if (!(await isFolder(runsFolder))) writeLine(`(no ${displayPath(runsFolder)} folder yet: runs appear once \`skillopt train\` writes there)`);
        writeLine('Stop with Ctrl-C (SIGINT) or SIGTERM.');
      }
      const signal = await stopped.promise;
      this.note(`Received ${signal}: closing the dashboard.`);
    } finally {
      stopped.dispose();
      await server.close();
    }
  }

  /** A line for the person watching: on stdout, or on stderr under --json (stdout holds JSON only). */
  private note(text: string): void {
    if (this.jsonEnabled()) process.stderr.write(`${text}\n`);
    else writeLine(text);
  }

  /** One line, the started one or the error: a script reads the first line of stdout and has it whole. */
  protected override logJson(json: unknown): void {
    process.stdout.write(jsonLine(json));
  }
}

/** The absolute folder of runs: the default may not exist yet (no runs yet); a folder named with --runs must. */
async function runsFolderOf(given: string | undefined, workingDirectory: string): Promise<string> {
  const folder = path.resolve(workingDirectory, given ?? DEFAULT_RUNS_FOLDER);
  if (given === undefined) return folder;
  const found = await stat(folder).catch(() => undefined);
  if (found === undefined)
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `--runs ${given}: there is no such folder. Name the folder that holds your run directories (\`skillopt train\` writes them under ${DEFAULT_RUNS_FOLDER}/), or one run directory`,
    });
  if (!found.isDirectory())
    throw new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: `--runs ${given} is a file, not a folder of run directories` });
  return folder;
}

function isFolder(folder: string): Promise<boolean> {
  return stat(folder).then(
    (found) => found.isDirectory(),
    () => false,
  );
}

function displayPath(folder: string): string {
  const relative = path.relative(process.cwd(), folder);
  return relative === '' ? '.' : relative.startsWith('..') || path.isAbsolute(relative) ? folder : relative;
}
