import { Flags } from '@oclif/core';
import { harvestWarnings, SESSION_SOURCES, type SourceReport, sourceLocationsOf, startHarvestRun } from '@skillopt/sleep';
import { formatCount, formatTable } from '../../output/format.js';
import { jsonLine } from '../../output/json-lines.js';
import { writeLine, writeWarning } from '../../inspection/write-output.js';
import { LOCATION_FLAGS, SOURCE_FLAGS, WINDOW_FLAGS } from '../../sleep/harvest-flags.js';
import { StreamingCommand } from '../../streaming-command.js';

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function skippedText(report: SourceReport): string {
  const parts = Object.entries(report.skipped)
    .filter(([, count]) => count > 0)
    .map(([reason, count]) => `${reason} ${count}`);
  return parts.length === 0 ? '—' : parts.join(', ');
}

export default class SleepHarvest extends StreamingCommand {
  static override summary = "Read your own coding-agent sessions: what Sleep's night would learn from, per source.";
  static override description = [
    "SkillOpt-Sleep's first stage, on its own: reads the sessions you had with Claude Code, Codex, GitHub Copilot (the CLI and VS Code's Copilot Chat), Cursor, Pi, OpenCode and Devin, each into one record (the task, the prompts and final replies, the tools called by name, the feedback you gave, the project, the times). It only reads: nothing is written, no checkpoint moves (only a completed night does that), nothing leaves the machine. Secrets are cut out of every text; sessions SkillOpt's own commands started are passed over.",
    'Which sessions: those of the projects given (default: the current folder and the folders below it; a session started above it, in $HOME or /, is not one of its sessions), that ended inside the window: --since or --lookback, else after the last completed night of each project, else the last 72 hours.',
    'It prints what it found per source: sessions, distinct tasks, and what it passed over and why. Under --json it streams the records as JSON Lines, one `{"type":"session", …}` per session, then one `result` line with the same counts (docs/cli-json.md). A source folder that does not exist is a warning when --source named it; a corrupt line is reported with its file and line and passed over.',
  ].join('\n\n');
  static override examples = [
    { description: "This project's sessions of the last 72 hours, from every source", command: '<%= config.bin %> sleep harvest' },
    { description: 'Claude Code and OpenCode only, the last week', command: '<%= config.bin %> sleep harvest --source claude-code,opencode --lookback 7d' },
    {
      description: 'Every project, since a date, as JSON Lines',
      command: '<%= config.bin %> sleep harvest --all-projects --since 2026-11-01 --json > sessions.jsonl',
    },
  ];
  static override flags = {
    ...SOURCE_FLAGS,
    project: Flags.string({ char: 'p', description: 'a project folder whose sessions to read (repeatable; default: the current folder)', multiple: true }),
    'all-projects': Flags.boolean({ description: 'read the sessions of every project', exclusive: ['project'] }),
    ...WINDOW_FLAGS,
    ...LOCATION_FLAGS,
    json: Flags.boolean({ description: 'print the session records as JSON lines on stdout, then one result or error line (docs/cli-json.md)' }),
  };

  async run(): Promise<object> {
    const { flags } = await this.parse(SleepHarvest);
    const workingDirectory = process.cwd();
    const run = await startHarvestRun({
      ...(flags.source === undefined ? {} : { sources: flags.source }),
      ...(flags.project === undefined ? {} : { projects: flags.project }),
      allProjects: flags['all-projects'],
      since: flags.since,
      lookback: flags.lookback,
      maxSessions: flags['max-sessions'],
      stateDirectory: flags['state-dir'],
      locations: sourceLocationsOf(flags, workingDirectory),
      workingDirectory,
    });
    const { harvest } = run;

    const json = this.jsonEnabled();
    for await (const session of harvest.sessions) if (json) process.stdout.write(jsonLine({ type: 'session', ...session }));

    for (const warning of harvestWarnings(harvest.reports)) writeWarning(warning);
    const result = run.result();
    const { sessions, tasks } = result;
    if (json) return result;

    const sourceName = (id: string) => SESSION_SOURCES.find((source) => source.id === id)?.name ?? id;
    const found = harvest.reports.filter((report) => report.filesFound > 0 || report.sessions > 0);
    writeLine(
      `${formatCount(sessions)} session${sessions === 1 ? '' : 's'} (${formatCount(tasks)} distinct task${tasks === 1 ? '' : 's'}) from ${found.length} of ${harvest.reports.length} source${harvest.reports.length === 1 ? '' : 's'}, ${result.window}.`,
    );
    const rows = [['source', 'sessions', 'tasks', 'files read', 'not opened', 'read', 'skipped']];
    for (const report of harvest.reports)
      rows.push([
        sourceName(report.source),
        formatCount(report.sessions),
        formatCount(report.tasks),
        formatCount(report.filesRead),
        formatCount(report.filesSkippedUnopened),
        formatBytes(report.bytesRead),
        report.filesFound === 0 && report.sessions === 0 ? 'nothing here' : skippedText(report),
      ]);
    writeLine(formatTable(rows));
    if (harvest.limitReached) writeLine(`Stopped at --max-sessions ${flags['max-sessions']}.`);
    writeLine('Records: add --json to print them as JSON Lines. Nothing was written and no checkpoint moved.');
    return result;
  }
}
