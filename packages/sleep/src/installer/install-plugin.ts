import { mkdir, readFile, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { writeFileAtomic } from '@skillopt/core';
import { readFileIfPresent, sha256Of } from '../adoption/file-sha256.js';
import { missingDirectories, resolveWriteTarget } from '../adoption/live-path.js';
import { type InstallVariables, installVariables, renderTemplate, renderValue } from './install-variables.js';
import { type InstallReceipt, readReceipt, receiptFile, type SettingRecord, writeReceipt } from './install-receipt.js';
import { appendValueAt, deleteValueAt, type JsonObject, readSettingsFile, removeElementAt, settingsText, setValueAt, valueAt } from './json-settings.js';
import { type PluginManifest, type PluginScope, type PluginScopePlan, readPluginManifest } from './plugin-manifest.js';

export interface PluginInstallRequest {
  /** The plugin package's folder (holding skillopt-plugin.json and package.json). */
  packageRoot: string;
  /** Install for one project instead of the user, where the runtime has project installs. */
  project?: string | undefined;
  stateDirectory: string;
  /** The `skillopt-sleep` bin the plugin's files call. */
  sleepBin: string;
  environment: Readonly<Record<string, string | undefined>>;
  /** Settings the command adds to the plugin's own, such as the backend a user chose for Sleep's nights. */
  extraSettings?: PluginScopePlan['settings'];
  /** The backend package this install put beside the plugin, for uninstall to name. */
  backend?: InstallReceipt['backend'];
  now?: () => Date;
}

export interface PluginInstallResult {
  plugin: string;
  runtime: string;
  version: string;
  scope: PluginScope;
  /** Files written, settings files changed, files moved aside: absolute paths. */
  filesPlaced: string[];
  settingsChanged: string[];
  movedAside: Array<{ from: string; to: string }>;
  /** Files of the user's that were in the way, kept beside them. */
  backups: string[];
  receipt: string;
  notes: string[];
}

export interface PluginUninstallResult {
  plugin: string;
  installed: boolean;
  filesRemoved: string[];
  settingsChanged: string[];
  /** What uninstall left because the user changed it after the install, each with why. */
  keptChanged: string[];
  restored: string[];
  receipt: string;
  /** The backend package the install added, which uninstall leaves for the caller to remove. */
  backendPackage?: InstallReceipt['backend'];
}

const LEGACY_SUFFIX = '.skillopt-legacy.bak';
const BACKUP_SUFFIX = '.skillopt-backup';

function scopeOf(request: { project?: string | undefined }): PluginScope {
  return request.project === undefined ? 'user' : 'project';
}

function planFor(manifest: PluginManifest, scope: PluginScope): PluginScopePlan {
  const plan = manifest.scopes[scope];
  if (plan === undefined)
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `The ${manifest.runtime} plugin installs for the user only: leave out --project.`,
    });
  return plan;
}

async function pluginVersion(packageRoot: string): Promise<string> {
  const manifest = JSON.parse(await readFile(path.join(packageRoot, 'package.json'), 'utf8')) as { version?: string };
  return manifest.version ?? '0.0.0';
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/** A free name beside `file` with `suffix`: the plain one, else one with a number. */
async function freeNameBeside(file: string, suffix: string): Promise<string> {
  for (let attempt = 0; ; attempt += 1) {
    const candidate = `${file}${suffix}${attempt === 0 ? '' : `.${attempt}`}`;
    if (!(await exists(candidate))) return candidate;
  }
}

const settingKey = (record: { file: string; kind: string; path: readonly string[] }): string => JSON.stringify([record.file, record.kind, record.path]);

interface PlannedSettingsFile {
  file: string;
  target: string;
  value: JsonObject;
  existed: boolean;
  changed: boolean;
}

/**
 * Applies a plan's settings to the parsed files, in memory: a key or element the last install
 * added is replaced where it stands (so the user's order is kept and a reinstall writes the same
 * bytes), one it added that the plan no longer has is taken out, and every other key is the
 * user's and is only ever set aside as `previous`, to be put back by uninstall.
 */
async function planSettings(
  plan: PluginScopePlan,
  variables: InstallVariables,
  earlier: InstallReceipt | undefined,
): Promise<{ files: PlannedSettingsFile[]; records: SettingRecord[] }> {
  const files = new Map<string, PlannedSettingsFile>();
  const fileFor = async (file: string): Promise<PlannedSettingsFile> => {
    let planned = files.get(file);
    if (planned === undefined) {
      const target = await resolveWriteTarget(file);
      const { value, existed } = await readSettingsFile(target);
      planned = { file, target, value, existed, changed: false };
      files.set(file, planned);
    }
    return planned;
  };
  const earlierRecords = new Map((earlier?.settings ?? []).map((record) => [settingKey(record), record]));
  const records: SettingRecord[] = [];
  for (const setting of plan.settings) {
    const where = `skillopt-plugin.json (${setting.file})`;
    const file = renderTemplate(setting.file, variables, where);
    const planned = await fileFor(file);
    for (const entry of setting.set) {
      const entryPath = entry.path.map((key) => renderTemplate(key, variables, where));
      const value = renderValue(entry.value, variables, where);
      const before = earlierRecords.get(settingKey({ file, kind: 'set', path: entryPath }));
      earlierRecords.delete(settingKey({ file, kind: 'set', path: entryPath }));
      const current = valueAt(planned.value, entryPath);
      const ours = before?.kind === 'set' && isDeepStrictEqual(current, before.value);
      if (!isDeepStrictEqual(current, value)) {
        setValueAt(planned.value, entryPath, value, file);
        planned.changed = true;
      }
      // What uninstall puts back: the user's value from before the first install, never our own.
      const hadPrevious = ours ? before.hadPrevious : current !== undefined;
      const previous = ours ? before.previous : current;
      records.push({ kind: 'set', file, path: entryPath, value, hadPrevious, ...(hadPrevious ? { previous } : {}) });
    }
    for (const entry of setting.append) {
      const entryPath = entry.path.map((key) => renderTemplate(key, variables, where));
      const value = renderValue(entry.value, variables, where);
      const before = earlierRecords.get(settingKey({ file, kind: 'append', path: entryPath }));
      earlierRecords.delete(settingKey({ file, kind: 'append', path: entryPath }));
      const array = valueAt(planned.value, entryPath);
      const index = Array.isArray(array) && before !== undefined ? array.findIndex((element) => isDeepStrictEqual(element, before.value)) : -1;
      if (Array.isArray(array) && index >= 0) {
        if (!isDeepStrictEqual(array[index], value)) {
          array[index] = value;
          planned.changed = true;
        }
      } else if (appendValueAt(planned.value, entryPath, value, file)) planned.changed = true;
      records.push({ kind: 'append', file, path: entryPath, value });
    }
  }
  // What an earlier install added and this plan no longer does.
  for (const record of earlierRecords.values()) {
    const planned = await fileFor(record.file);
    if (undoSetting(planned.value, record) === 'undone') planned.changed = true;
  }
  return { files: [...files.values()], records };
}

/** Takes one recorded setting out of a parsed file; `kept` when the user changed it since. */
function undoSetting(root: JsonObject, record: SettingRecord): 'undone' | 'kept' | 'absent' {
  if (record.kind === 'append') return removeElementAt(root, record.path, record.value) ? 'undone' : 'absent';
  const current = valueAt(root, record.path);
  if (current === undefined) return 'absent';
  if (!isDeepStrictEqual(current, record.value)) return 'kept';
  if (record.hadPrevious) setValueAt(root, record.path, record.previous, record.file);
  else deleteValueAt(root, record.path);
  return 'undone';
}

/** Writes a settings file atomically, keeping an existing file's permissions. */
async function writeSettings(target: string, value: JsonObject): Promise<void> {
  const mode = await stat(target).then(
    (stats) => stats.mode & 0o777,
    () => undefined,
  );
  await writeFileAtomic(target, settingsText(value), mode === undefined ? {} : { mode });
}

/** Installs a plugin: moves legacy files aside, places its files, merges its settings, and writes the receipt. */
export async function installPlugin(request: PluginInstallRequest): Promise<PluginInstallResult> {
  const packageRoot = path.resolve(request.packageRoot);
  const manifest = await readPluginManifest(packageRoot);
  const scope = scopeOf(request);
  const project = request.project === undefined ? undefined : path.resolve(request.project);
  const manifestPlan = planFor(manifest, scope);
  const plan = { ...manifestPlan, settings: [...manifestPlan.settings, ...(request.extraSettings ?? [])] };
  const version = await pluginVersion(packageRoot);
  const receiptPath = receiptFile(request.stateDirectory, manifest.id, scope, project);
  const earlier = await readReceipt(receiptPath);
  const installedAt = earlier?.installedAt ?? (request.now ?? (() => new Date()))().toISOString();
  const variables = installVariables({
    environment: request.environment,
    project,
    packageRoot,
    pluginVersion: version,
    sleepBin: request.sleepBin,
    installedAt,
  });

  // Everything is read and checked before the first write: a malformed settings file, a missing
  // plugin file or an unknown placeholder stops the install with nothing changed.
  const settings = await planSettings(plan, variables, earlier);
  const files = await Promise.all(
    plan.files.map(async (entry) => {
      const where = `skillopt-plugin.json (${entry.from})`;
      const source = path.join(packageRoot, entry.from);
      const raw = await readFile(source).catch((error: NodeJS.ErrnoException) => {
        throw new SkillOptError({
          code: ERROR_CODES.configInvalid,
          category: 'user',
          message: `The plugin package at ${packageRoot} lacks ${entry.from} (${error.code ?? error.message}); reinstall the package.`,
        });
      });
      const content = entry.render ? Buffer.from(renderTemplate(raw.toString('utf8'), variables, where)) : raw;
      const destination = renderTemplate(entry.to, variables, where);
      return { destination, content, sha256: sha256Of(content) };
    }),
  );
  const earlierFiles = new Map((earlier?.files ?? []).map((file) => [file.path, file]));

  const receipt: InstallReceipt = {
    format: 'skillopt.plugin-receipt.v1',
    plugin: manifest.id,
    version,
    scope,
    ...(project === undefined ? {} : { project }),
    packageRoot,
    installedAt,
    complete: false,
    files: [],
    directories: [...(earlier?.directories ?? [])],
    settings: settings.records,
    createdSettingsFiles: [...new Set([...(earlier?.createdSettingsFiles ?? []), ...settings.files.filter((file) => !file.existed).map((file) => file.file)])],
    movedAside: [...(earlier?.movedAside ?? [])],
    ...((request.backend ?? earlier?.backend) === undefined ? {} : { backend: request.backend ?? earlier?.backend }),
  };
  // The files this install will own are in the receipt before they are written.
  const backups: string[] = [];
  for (const file of files) {
    const existing = await readFileIfPresent(file.destination);
    const before = earlierFiles.get(file.destination);
    let backup = before?.backup;
    const userFile = existing !== undefined && !(before !== undefined && sha256Of(existing) === before.sha256) && sha256Of(existing) !== file.sha256;
    if (userFile) backup = await freeNameBeside(file.destination, BACKUP_SUFFIX);
    receipt.files.push({ path: file.destination, sha256: file.sha256, ...(backup === undefined ? {} : { backup }) });
    if (userFile && backup !== undefined) backups.push(backup);
  }
  const legacy = plan.moveAside.map((entry) => renderTemplate(entry, variables, 'skillopt-plugin.json (moveAside)'));
  const toMove: Array<{ from: string; to: string }> = [];
  for (const from of legacy) if (await exists(from)) toMove.push({ from, to: await freeNameBeside(from, LEGACY_SUFFIX) });
  receipt.movedAside.push(...toMove);
  for (const destination of [...files.map((file) => file.destination), ...settings.files.filter((file) => file.changed).map((file) => file.target)])
    for (const directory of await missingDirectories(destination)) if (!receipt.directories.includes(directory)) receipt.directories.push(directory);
  await writeReceipt(receiptPath, receipt);

  for (const move of toMove) await rename(move.from, move.to);
  for (const [index, file] of files.entries()) {
    const record = receipt.files[index] as InstallReceipt['files'][number];
    const existing = await readFileIfPresent(file.destination);
    if (existing !== undefined && sha256Of(existing) === file.sha256) continue;
    if (existing !== undefined && record.backup !== undefined && !(await exists(record.backup))) await rename(file.destination, record.backup);
    await mkdir(path.dirname(file.destination), { recursive: true });
    await writeFileAtomic(file.destination, file.content);
  }
  for (const file of settings.files) if (file.changed) await writeSettings(file.target, file.value);
  // Files an earlier install placed that this one no longer has.
  for (const [stale, record] of earlierFiles)
    if (!files.some((file) => file.destination === stale)) await removeOwnFile(stale, record, { removed: [], kept: [], restored: [] });

  receipt.complete = true;
  await writeReceipt(receiptPath, receipt);
  return {
    plugin: manifest.id,
    runtime: manifest.runtime,
    version,
    scope,
    filesPlaced: files.map((file) => file.destination),
    settingsChanged: settings.files.filter((file) => file.changed).map((file) => file.file),
    movedAside: toMove,
    backups,
    receipt: receiptPath,
    notes: plan.notes.map((note) => renderTemplate(note, variables, 'skillopt-plugin.json (notes)')),
  };
}

/** Removes a placed file if it is still what the install wrote, and puts back the user's file it replaced. */
async function removeOwnFile(
  file: string,
  record: InstallReceipt['files'][number],
  outcome: { removed: string[]; kept: string[]; restored: string[] },
): Promise<void> {
  const existing = await readFileIfPresent(file);
  if (existing !== undefined && sha256Of(existing) !== record.sha256) {
    outcome.kept.push(`${file} (changed since the install)`);
    return;
  }
  if (existing !== undefined) {
    await rm(file);
    outcome.removed.push(file);
  }
  if (record.backup !== undefined && (await exists(record.backup))) {
    await rename(record.backup, file);
    outcome.restored.push(file);
  }
}

/** Takes out what the receipt says the install added, leaving whatever the user changed since; then deletes the receipt. */
export async function uninstallPlugin(request: { packageRoot: string; project?: string | undefined; stateDirectory: string }): Promise<PluginUninstallResult> {
  const manifest = await readPluginManifest(path.resolve(request.packageRoot));
  const scope = scopeOf(request);
  const project = request.project === undefined ? undefined : path.resolve(request.project);
  const receiptPath = receiptFile(request.stateDirectory, manifest.id, scope, project);
  const receipt = await readReceipt(receiptPath);
  const result: PluginUninstallResult = {
    plugin: manifest.id,
    installed: receipt !== undefined,
    filesRemoved: [],
    settingsChanged: [],
    keptChanged: [],
    restored: [],
    receipt: receiptPath,
  };
  if (receipt === undefined) return result;

  // Every settings file is read before any is written: a malformed one stops the uninstall whole.
  const byFile = new Map<string, SettingRecord[]>();
  for (const record of receipt.settings) byFile.set(record.file, [...(byFile.get(record.file) ?? []), record]);
  const parsed = await Promise.all(
    [...byFile.keys()].map(async (file) => {
      const target = await resolveWriteTarget(file);
      return { file, target, ...(await readSettingsFile(target)) };
    }),
  );
  for (const settingsFile of parsed) {
    if (!settingsFile.existed) continue;
    let changed = false;
    for (const record of byFile.get(settingsFile.file) ?? []) {
      const outcome = undoSetting(settingsFile.value, record);
      if (outcome === 'undone') changed = true;
      if (outcome === 'kept') result.keptChanged.push(`${settingsFile.file}: ${record.path.join('.')} (changed since the install)`);
    }
    if (receipt.createdSettingsFiles.includes(settingsFile.file) && Object.keys(settingsFile.value).length === 0) {
      await rm(settingsFile.target);
      result.settingsChanged.push(settingsFile.file);
    } else if (changed) {
      await writeSettings(settingsFile.target, settingsFile.value);
      result.settingsChanged.push(settingsFile.file);
    }
  }
  const outcome = { removed: result.filesRemoved, kept: result.keptChanged, restored: result.restored };
  for (const file of receipt.files) await removeOwnFile(file.path, file, outcome);
  for (const move of [...receipt.movedAside].reverse())
    if ((await exists(move.to)) && !(await exists(move.from))) {
      await rename(move.to, move.from);
      result.restored.push(move.from);
    }
  // Deepest first; a folder the user has put something in stays.
  for (const directory of [...receipt.directories].sort((left, right) => right.length - left.length)) await rmdir(directory).catch(() => undefined);
  if (receipt.backend !== undefined) result.backendPackage = receipt.backend;
  await rm(receiptPath, { force: true });
  // The receipts' folder, and Sleep's state folder if the install was all that made it.
  for (const folder of [path.dirname(receiptPath), request.stateDirectory]) await rmdir(folder).catch(() => undefined);
  return result;
}
