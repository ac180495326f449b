import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { nearestWord } from '@skillopt/core';

/** The agent runtimes SkillOpt publishes a plugin for: `@skillopt/plugin-<id>`. */
export const PLUGIN_IDS = ['claude-code', 'codex', 'copilot', 'cursor', 'devin', 'openclaw'] as const;

/** The package of a plugin id. */
function pluginPackageName(id: string): string {
  return `@skillopt/plugin-${id}`;
}

/** The folder of `name` as Node would find it from `start`: in a node_modules folder of it or an ancestor. */
function packageFolderFrom(start: string, name: string): string | undefined {
  for (let folder = path.resolve(start); ; folder = path.dirname(folder)) {
    const candidate = path.join(folder, 'node_modules', ...name.split('/'));
    if (existsSync(path.join(candidate, 'package.json'))) return realpathSync(candidate);
    if (path.dirname(folder) === folder) return undefined;
  }
}

/**
 * The installed plugin package of `id`, looked for from the working directory, then beside the
 * CLI's own installation (a plugin installed globally with the CLI). A misspelt id is answered with
 * the nearest one; a plugin that is not installed, with the `npm install` that fixes it.
 */
export function locatePluginPackage(id: string, searchDirectories: readonly string[]): string {
  if (!(PLUGIN_IDS as readonly string[]).includes(id)) {
    const nearest = nearestWord(id, PLUGIN_IDS);
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `There is no SkillOpt plugin "${id}"${nearest === undefined ? '' : `; did you mean "${nearest.word}"?`}. The plugins are ${PLUGIN_IDS.join(', ')}.`,
    });
  }
  const name = pluginPackageName(id);
  for (const directory of searchDirectories) {
    const found = packageFolderFrom(directory, name);
    if (found !== undefined) return found;
  }
  throw new SkillOptError({
    code: ERROR_CODES.packageNotFound,
    category: 'user',
    message: `${name} is not installed (looked from ${searchDirectories.join(' and ')}). Install it, then run this again: npm install --global ${name}`,
  });
}
