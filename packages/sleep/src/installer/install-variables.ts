import os from 'node:os';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { defaultSourceLocations } from '../harvest/source-locations.js';

/**
 * The `{{name}}` placeholders a plugin manifest may use. The runtimes' folders come from the same
 * place the harvest finds their sessions (source-locations.ts), so an installer and a night never
 * disagree about where Claude Code or Codex lives.
 */
export interface InstallVariables {
  home: string;
  /** Claude Code's config folder: $CLAUDE_CONFIG_DIR, else ~/.claude. */
  claudeHome: string;
  /** Codex's home: $CODEX_HOME, else ~/.codex. */
  codexHome: string;
  /** The GitHub Copilot CLI's home: $COPILOT_HOME, else ~/.copilot. */
  copilotHome: string;
  /** Cursor's home: $CURSOR_HOME, else ~/.cursor. */
  cursorHome: string;
  /** The agent-neutral user folder of skills and agents: ~/.agents. */
  agentsHome: string;
  /** OpenClaw's state folder, where its shared skills live: $OPENCLAW_STATE_DIR, else ~/.openclaw. */
  openclawHome: string;
  /** The project of a project install (absolute); empty for a user install. */
  project: string;
  /** The plugin package's own folder, where it was installed. */
  packageRoot: string;
  pluginVersion: string;
  /** The absolute path of @skillopt/sleep's `skillopt-sleep` bin, resolved from the plugin's dependencies. */
  sleepBin: string;
  /** The first install's time (kept on reinstalls, so a second install writes the same bytes). */
  installedAt: string;
}

type Environment = Readonly<Record<string, string | undefined>>;

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

export function installVariables(input: {
  environment: Environment;
  project: string | undefined;
  packageRoot: string;
  pluginVersion: string;
  sleepBin: string;
  installedAt: string;
}): InstallVariables {
  const home = nonEmpty(input.environment.HOME) ?? os.homedir();
  const locations = defaultSourceLocations(input.environment, home);
  return {
    home,
    claudeHome: locations.claudeHome,
    codexHome: locations.codexHome,
    copilotHome: locations.copilotHome,
    cursorHome: nonEmpty(input.environment.CURSOR_HOME) ?? locations.cursorHome,
    agentsHome: path.join(home, '.agents'),
    openclawHome: nonEmpty(input.environment.OPENCLAW_STATE_DIR) ?? path.join(home, '.openclaw'),
    project: input.project ?? '',
    packageRoot: input.packageRoot,
    pluginVersion: input.pluginVersion,
    sleepBin: input.sleepBin,
    installedAt: input.installedAt,
  };
}

const PLACEHOLDER = /\{\{([A-Za-z]+)\}\}/g;

/** `text` with every `{{name}}` filled in; an unknown name is an error in the plugin, named. */
export function renderTemplate(text: string, variables: InstallVariables, where: string): string {
  return text.replace(PLACEHOLDER, (_match, name: string) => {
    if (!Object.hasOwn(variables, name))
      throw new SkillOptError({
        code: ERROR_CODES.configInvalid,
        category: 'user',
        message: `${where} uses {{${name}}}, which is not an install variable (${Object.keys(variables).join(', ')})`,
      });
    return variables[name as keyof InstallVariables];
  });
}

/** A JSON value with every string in it rendered. */
export function renderValue(value: unknown, variables: InstallVariables, where: string): unknown {
  if (typeof value === 'string') return renderTemplate(value, variables, where);
  if (Array.isArray(value)) return value.map((element) => renderValue(element, variables, where));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, element]) => [renderTemplate(key, variables, where), renderValue(element, variables, where)]));
  return value;
}
