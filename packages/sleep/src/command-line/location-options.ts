import path from 'node:path';
import type { SourceLocations } from '../harvest/source-locations.js';

/** The options that point a source somewhere else than its default, by their command-line names. */
export interface LocationOptions {
  'claude-home'?: string | undefined;
  'codex-home'?: string | undefined;
  'copilot-home'?: string | undefined;
  'copilot-session-store'?: string | undefined;
  'vscode-workspace-storage'?: readonly string[] | undefined;
  'cursor-home'?: string | undefined;
  'pi-home'?: string | undefined;
  'opencode-db'?: string | undefined;
  'devin-transcripts'?: string | undefined;
}

/** The location options that name one path each (`--vscode-workspace-storage` may be repeated). */
export const SINGLE_LOCATION_OPTIONS = [
  'claude-home',
  'codex-home',
  'copilot-home',
  'copilot-session-store',
  'cursor-home',
  'pi-home',
  'opencode-db',
  'devin-transcripts',
] as const satisfies ReadonlyArray<keyof LocationOptions>;

/** The source locations the options name, absolute; the Copilot CLI's store follows `--copilot-home` unless named. */
export function sourceLocationsOf(options: LocationOptions, workingDirectory: string): Partial<SourceLocations> {
  const absolute = (value: string | undefined) => (value === undefined ? undefined : path.resolve(workingDirectory, value));
  const copilotHome = absolute(options['copilot-home']);
  const entries: Array<[keyof SourceLocations, string | string[] | undefined]> = [
    ['claudeHome', absolute(options['claude-home'])],
    ['codexHome', absolute(options['codex-home'])],
    ['copilotHome', copilotHome],
    ['copilotSessionStore', absolute(options['copilot-session-store']) ?? (copilotHome === undefined ? undefined : path.join(copilotHome, 'session-store.db'))],
    ['vscodeWorkspaceStorage', options['vscode-workspace-storage']?.map((folder) => path.resolve(workingDirectory, folder))],
    ['cursorHome', absolute(options['cursor-home'])],
    ['piHome', absolute(options['pi-home'])],
    ['opencodeDatabase', absolute(options['opencode-db'])],
    ['devinTranscripts', absolute(options['devin-transcripts'])],
  ];
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined));
}
