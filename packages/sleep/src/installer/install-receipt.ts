import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { writeFileAtomic } from '@skillopt/core';
import { z } from 'zod';
import { projectPathHash } from '../checkpoints/state-directory.js';
import type { PluginScope } from './plugin-manifest.js';

/**
 * What one install of a plugin added, so that uninstall takes out exactly that and nothing of the
 * user's. It is written before the first change (`complete: false`) and again after the last, so
 * an install killed half-way is still undone by uninstall, or finished by installing again.
 */
export const RECEIPT_FORMAT = 'skillopt.plugin-receipt.v1';

const jsonPath = z.array(z.string());

const receiptSchema = z.object({
  format: z.literal(RECEIPT_FORMAT),
  plugin: z.string(),
  version: z.string(),
  scope: z.enum(['user', 'project']),
  project: z.string().optional(),
  packageRoot: z.string(),
  installedAt: z.string(),
  complete: z.boolean(),
  files: z.array(z.object({ path: z.string(), sha256: z.string(), backup: z.string().optional() })),
  /** Folders the install made, removed on uninstall when they are empty again. */
  directories: z.array(z.string()),
  settings: z.array(
    z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('set'), file: z.string(), path: jsonPath, value: z.unknown(), hadPrevious: z.boolean(), previous: z.unknown().optional() }),
      z.object({ kind: z.literal('append'), file: z.string(), path: jsonPath, value: z.unknown() }),
    ]),
  ),
  /** Settings files that did not exist before: removed when uninstall leaves them empty. */
  createdSettingsFiles: z.array(z.string()),
  movedAside: z.array(z.object({ from: z.string(), to: z.string() })),
  backend: z.object({ packageName: z.string(), installedBy: z.array(z.string()).optional(), directory: z.string() }).optional(),
});

export type InstallReceipt = z.infer<typeof receiptSchema>;
export type SettingRecord = InstallReceipt['settings'][number];

/** `<state>/plugins/<id>.json` for a user install, `<id>-project-<hash>.json` for one project's. */
export function receiptFile(stateDirectory: string, plugin: string, scope: PluginScope, project: string | undefined): string {
  const name = scope === 'user' || project === undefined ? plugin : `${plugin}-project-${projectPathHash(project)}`;
  return path.join(stateDirectory, 'plugins', `${name}.json`);
}

export async function readReceipt(file: string): Promise<InstallReceipt | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = receiptSchema.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `${file} is not a ${RECEIPT_FORMAT} receipt (${parsed.error.issues[0]?.message ?? 'invalid'}); move it away to install afresh.`,
    });
  return parsed.data;
}

export async function writeReceipt(file: string, receipt: InstallReceipt): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(receipt, null, 2)}\n`);
}
