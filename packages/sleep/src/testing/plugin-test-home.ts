import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type PluginAction, runPluginCommandLine } from '../installer/plugin-command-line.js';

export interface PluginTestHome {
  /** A temporary folder holding `home`; the working directory of every run. */
  root: string;
  /** The HOME every run gets. */
  home: string;
  /** Runs the plugin's `install` or `uninstall` as its bin would, with HOME set (and `environment`), and resolves with what it printed. */
  run(action: PluginAction, args?: readonly string[], environment?: Readonly<Record<string, string>>): Promise<string>;
  /** Removes `root` and everything in it. */
  remove(): void;
}

/** A temporary HOME for installing the plugin package at `packageRoot` for real. */
export function createPluginTestHome(packageRoot: string, prefix = 'plugin-'): PluginTestHome {
  const root = mkdtempSync(path.join(os.tmpdir(), prefix));
  const home = path.join(root, 'home');
  mkdirSync(home);
  return {
    root,
    home,
    async run(action, args = [], environment = {}) {
      let output = '';
      await runPluginCommandLine(packageRoot, action, args, {
        write: (text) => {
          output += text;
        },
        environment: { HOME: home, ...environment },
        workingDirectory: root,
      });
      return output;
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
