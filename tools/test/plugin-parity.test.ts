import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FIRST_PARTY_PACKAGES } from '@skillopt/core';
import { SLEEP_ACTION_NAMES, SLEEP_ACTIONS } from '@skillopt/sleep/commands';

/**
 * Every plugin names the same actions, options and backends as the `skillopt-sleep` command: the
 * block that lists them is generated from @skillopt/sleep's definitions and must be current, and
 * whatever a plugin's files say outside it is checked against the same definitions.
 */
const repository = path.resolve(__dirname, '..', '..');
const generator = JSON.parse(
  execFileSync(process.execPath, [path.join(repository, 'tools', 'plugins', 'plugin-files.mjs'), '--json'], { encoding: 'utf8' }),
) as {
  block: string;
  blockBegin: string;
  plugins: string[];
  outOfDate: string[];
};
const plugins = generator.plugins.map((plugin) => path.join(repository, plugin));
// The flags of the plugins' own installers (`skillopt-plugin-<id> install`), which their READMEs teach.
const INSTALLER_OPTIONS = ['project', 'backend', 'state-dir', 'json', 'help'];
const SLEEP_OPTIONS = new Set(SLEEP_ACTIONS.flatMap((action) => Object.keys(action.options)));
const BACKENDS = FIRST_PARTY_PACKAGES.backend.filter((known) => known.published).map((known) => known.id);

/** A plugin's documents: its README, its commands and its skills. */
function documents(root: string): string[] {
  const found = [path.join(root, 'README.md')];
  for (const folder of ['commands', 'skills']) {
    const directory = path.join(root, folder);
    if (!existsSync(directory)) continue;
    for (const entry of readdirSync(directory, { recursive: true }) as string[]) if (entry.endsWith('.md')) found.push(path.join(directory, entry));
  }
  return found;
}

const relative = (file: string) => path.relative(repository, file);

/** A document without what is not about Sleep's flags: HTML comments and npm's own command lines. */
function prose(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, '')
    .split('\n')
    .filter((line) => !/\bnpm (?:install|uninstall)\b/.test(line))
    .join('\n');
}

describe('the plugins and the skillopt-sleep command', () => {
  it('are every plugin of the repository', () => {
    expect(plugins.map((root) => path.basename(root)).sort()).toEqual([
      'plugin-claude-code',
      'plugin-codex',
      'plugin-copilot',
      'plugin-cursor',
      'plugin-devin',
      'plugin-dsh',
      'plugin-openclaw',
    ]);
  });

  it('agree: every generated block and manifest version is current (node tools/plugins/plugin-files.mjs --write)', () => {
    expect(generator.outOfDate).toEqual([]);
  });

  it('give every command and skill the generated list of actions, options and backends', () => {
    const { block } = generator;
    for (const action of SLEEP_ACTION_NAMES) expect(block).toContain(`| \`${action}\` |`);
    for (const backend of BACKENDS) expect(block).toContain(`\`${backend}\``);
    for (const root of plugins)
      for (const file of documents(root).filter((document) => !document.endsWith('README.md')))
        expect({ file: relative(file), hasBlock: readFileSync(file, 'utf8').includes(generator.blockBegin) }).toEqual({ file: relative(file), hasBlock: true });
  });

  it('name no flag the command or the installers do not have', () => {
    const unknown = plugins.flatMap((root) =>
      documents(root).flatMap((file) =>
        [...prose(readFileSync(file, 'utf8')).matchAll(/(?<![\w-])--([a-z][a-z-]*[a-z])\b/g)]
          .map((match) => match[1] as string)
          .filter((name) => !SLEEP_OPTIONS.has(name) && !INSTALLER_OPTIONS.includes(name))
          .map((name) => `${relative(file)}: --${name}`),
      ),
    );
    expect(unknown).toEqual([]);
  });

  it('run only actions the command has', () => {
    const runner = /(?:skillopt-sleep\.mjs"|\{\{sleepBin\}\}")\s+([a-z<][a-z-]*>?)/g;
    const actions = plugins.flatMap((root) =>
      documents(root).flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(runner)].map((match) => ({ file: relative(file), action: match[1] as string })),
      ),
    );
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.filter(({ action }) => action !== '<action>' && !(SLEEP_ACTION_NAMES as readonly string[]).includes(action))).toEqual([]);
  });

  it("offer Claude Code's command every action in its argument hint", () => {
    const command = readFileSync(path.join(repository, 'packages', 'plugin-claude-code', 'commands', 'skillopt-sleep.md'), 'utf8');
    const hint = /^argument-hint: "\[([^\]]+)\]/m.exec(command)?.[1] ?? '';
    expect(hint.split('|').map((action) => action.trim())).toEqual([...SLEEP_ACTION_NAMES]);
  });
});
