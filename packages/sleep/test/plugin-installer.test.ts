import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { folderSnapshot } from '../src/testing/folder-snapshot.js';
import { installPlugin, uninstallPlugin } from '../src/installer/install-plugin.js';
import { readReceipt } from '../src/installer/install-receipt.js';

/**
 * The installer's mechanics on an example plugin (test/fixtures/plugin-example): files placed and
 * rendered, settings merged around the user's own, a second install that changes nothing, a
 * malformed settings file left untouched, and an uninstall that takes out exactly what was added.
 */
const packageRoot = path.join(__dirname, 'fixtures', 'plugin-example');
const SLEEP_BIN = '/opt/sleep/bin/skillopt-sleep.js';

let root: string;
let home: string;
let stateDirectory: string;
const now = () => new Date('2026-12-04T03:17:00.000Z');

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'plugin-installer-'));
  home = path.join(root, 'home');
  stateDirectory = path.join(home, '.skillopt-sleep');
  mkdirSync(home);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const install = () => installPlugin({ packageRoot, stateDirectory, sleepBin: SLEEP_BIN, environment: { HOME: home }, now });
const uninstall = () => uninstallPlugin({ packageRoot, stateDirectory });
const settingsFile = () => path.join(home, '.example', 'settings.json');
const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

const tree = folderSnapshot;

/** A user's own settings, written the way they wrote them: four spaces, a key after ours. */
const USER_SETTINGS = `{\n    "theme": "dark",\n    "hooks": {\n        "SessionEnd": [{ "command": "their-own-hook" }]\n    },\n    "plugins": { "other": { "root": "/elsewhere" } }\n}\n`;

describe("a plugin's install", () => {
  it('places its files, rendering only those marked, and merges its settings around the user’s', async () => {
    mkdirSync(path.dirname(settingsFile()), { recursive: true });
    writeFileSync(settingsFile(), USER_SETTINGS);
    const result = await install();

    expect(readFileSync(path.join(home, '.example', 'commands', 'sleep.md'), 'utf8')).toBe(`Run \`node "${SLEEP_BIN}" status --project "$PWD"\`.\n`);
    expect(readFileSync(path.join(home, '.example', 'plugins', 'sleep', 'README.md'), 'utf8')).toContain('{{sleepBin}} stays as written');
    expect(readJson(settingsFile())).toEqual({
      theme: 'dark',
      hooks: { SessionEnd: [{ command: 'their-own-hook' }, { command: `node ${packageRoot}/hook.mjs` }] },
      plugins: { other: { root: '/elsewhere' }, sleep: { root: packageRoot, version: '1.2.3', since: '2026-12-04T03:17:00.000Z' } },
      enabled: true,
    });
    expect(result).toMatchObject({ plugin: 'example', version: '1.2.3', scope: 'user', settingsChanged: [settingsFile()], backups: [], movedAside: [] });
    expect(result.notes).toEqual(['Start a new Example Agent session and type /sleep.']);
    expect((await readReceipt(result.receipt))?.complete).toBe(true);
  });

  it('changes nothing when run a second time: same bytes, no second hook, no backups', async () => {
    await install();
    const first = tree(home);
    const again = await install();
    expect(tree(home)).toEqual(first);
    expect(again.settingsChanged).toEqual([]);
    expect(again.backups).toEqual([]);
    expect((readJson(settingsFile()) as { hooks: { SessionEnd: unknown[] } }).hooks.SessionEnd).toHaveLength(1);
  });

  it('refuses a malformed settings file, naming where it breaks, and writes nothing at all', async () => {
    mkdirSync(path.dirname(settingsFile()), { recursive: true });
    const broken = '{\n  "theme": "dark",\n  "plugins": { "a": 1, }\n}\n';
    writeFileSync(settingsFile(), broken);
    await expect(install()).rejects.toThrow(/settings\.json is not valid JSON \(line 3, column 24\); nothing was written/);
    expect(readFileSync(settingsFile(), 'utf8')).toBe(broken);
    expect(Object.keys(tree(home))).toEqual([path.join('.example', 'settings.json')]);
  });

  it('keeps a file of the user’s that is in the way beside it, and moves a legacy prompt aside', async () => {
    const command = path.join(home, '.example', 'commands', 'sleep.md');
    const legacy = path.join(home, '.example', 'prompts', 'sleep.md');
    mkdirSync(path.dirname(command), { recursive: true });
    mkdirSync(path.dirname(legacy), { recursive: true });
    writeFileSync(command, 'my own sleep command\n');
    writeFileSync(legacy, 'the original prompt\n');
    const result = await install();
    expect(result.backups).toEqual([`${command}.skillopt-backup`]);
    expect(readFileSync(`${command}.skillopt-backup`, 'utf8')).toBe('my own sleep command\n');
    expect(result.movedAside).toEqual([{ from: legacy, to: `${legacy}.skillopt-legacy.bak` }]);
    expect(existsSync(legacy)).toBe(false);

    await uninstall();
    expect(readFileSync(command, 'utf8')).toBe('my own sleep command\n');
    expect(readFileSync(legacy, 'utf8')).toBe('the original prompt\n');
  });
});

describe("a plugin's uninstall", () => {
  it('takes out exactly what the install added: the user’s settings are back byte for byte', async () => {
    mkdirSync(path.dirname(settingsFile()), { recursive: true });
    writeFileSync(settingsFile(), `${JSON.stringify(JSON.parse(USER_SETTINGS), null, 2)}\n`);
    const before = tree(home);
    await install();
    const result = await uninstall();
    expect(tree(home)).toEqual(before);
    expect(result).toMatchObject({ installed: true, keptChanged: [] });
    expect(result.filesRemoved).toHaveLength(2);
    expect(existsSync(path.join(home, '.example', 'commands'))).toBe(false);
  });

  it('removes a settings file and folders it created, and leaves a home it found empty as empty', async () => {
    await install();
    await uninstall();
    expect(tree(home)).toEqual({});
    expect(readdirSync(home)).toEqual([]);
  });

  it('leaves what the user changed after the install, and says so', async () => {
    await install();
    const settings = readJson(settingsFile()) as Record<string, unknown>;
    writeFileSync(settingsFile(), JSON.stringify({ ...settings, enabled: false, mine: 1 }));
    const command = path.join(home, '.example', 'commands', 'sleep.md');
    writeFileSync(command, 'edited by the user\n');
    const result = await uninstall();
    expect(readJson(settingsFile())).toEqual({ enabled: false, mine: 1 });
    expect(readFileSync(command, 'utf8')).toBe('edited by the user\n');
    expect(result.keptChanged).toEqual([`${settingsFile()}: enabled (changed since the install)`, `${command} (changed since the install)`]);
  });

  it('puts back the user’s own value of a key the install set', async () => {
    mkdirSync(path.dirname(settingsFile()), { recursive: true });
    writeFileSync(settingsFile(), JSON.stringify({ enabled: 'only-on-fridays' }));
    await install();
    expect((readJson(settingsFile()) as { enabled: unknown }).enabled).toBe(true);
    await install();
    await uninstall();
    expect(readJson(settingsFile())).toEqual({ enabled: 'only-on-fridays' });
  });

  it('says so when nothing is installed, and changes nothing', async () => {
    const result = await uninstall();
    expect(result.installed).toBe(false);
    expect(tree(home)).toEqual({});
  });

  it('undoes an install that was killed before it finished, from its first receipt', async () => {
    const result = await install();
    // The receipt as it stood before the first write: the files and settings it was about to add.
    const receipt = JSON.parse(readFileSync(result.receipt, 'utf8')) as Record<string, unknown>;
    writeFileSync(result.receipt, JSON.stringify({ ...receipt, complete: false }));
    rmSync(path.join(home, '.example', 'plugins'), { recursive: true });
    await uninstall();
    expect(tree(home)).toEqual({});
  });
});
