import path from 'node:path';
import type { TaskItem } from '@skillopt/contract';
import { z } from 'zod';
import { type AlfWorldTaskType, knownTaskType, taskTypeOfGamePath } from './task-types.js';

/**
 * One ALFWorld item as the original's split manifest writes it: an id (`train:0000`), the game
 * file relative to the ALFWorld data folder (`json_2.1.1/train/<task>/<trial>/game.tw-pddl`, or
 * absolute), and its task type (taken from the path when absent). Unknown fields are ignored.
 */
export const alfWorldRawItemSchema = z
  .object({
    id: z.union([z.string(), z.number().transform(String)]),
    gamefile: z.string(),
    task_type: z.string().optional(),
  })
  .superRefine((raw, context) => {
    const id = raw.id.trim();
    if (id === '') context.addIssue({ code: 'custom', path: ['id'], message: 'id must not be blank' });
    else if (/[/\\]|^\.\.?$/.test(id)) context.addIssue({ code: 'custom', path: ['id'], message: `id "${id}" must not contain / or \\ or be . or ..` });
    if (raw.gamefile.trim() === '') context.addIssue({ code: 'custom', path: ['gamefile'], message: 'gamefile must name a game file' });
    if (raw.task_type !== undefined && knownTaskType(raw.task_type.trim()) === undefined)
      context.addIssue({ code: 'custom', path: ['task_type'], message: `task_type "${raw.task_type}" is not one of ALFWorld's six task types (or "other")` });
  });
export type AlfWorldRawItem = z.input<typeof alfWorldRawItemSchema>;

/**
 * The TaskItem an ALFWorld item becomes. There is no question and no reference answer: the game
 * itself says whether it was won. `gamefile` stays as written (relative to the data folder), so
 * the same split works wherever the data is.
 */
export interface AlfWorldTaskItem extends TaskItem {
  taskType: AlfWorldTaskType;
  gamefile: string;
}

/** The zod mapper from the on-disk item to a TaskItem, for env-kit's loaders. */
export const alfWorldItemMapper: z.ZodType<AlfWorldTaskItem> = alfWorldRawItemSchema.transform((raw) => ({
  id: raw.id.trim(),
  taskType: knownTaskType(raw.task_type?.trim() ?? '') ?? taskTypeOfGamePath(raw.gamefile),
  gamefile: raw.gamefile.trim(),
})) as unknown as z.ZodType<AlfWorldTaskItem>;

/** `$NAME`, `${NAME}` and a leading `~` expanded, the way the original expanded game paths. */
function expandPath(value: string, variables: NodeJS.ProcessEnv, home: string): string {
  const expanded = value.replace(/\$(?:\{(\w+)\}|(\w+))/g, (whole, braced: string | undefined, bare: string | undefined) => {
    const name = braced ?? bare ?? '';
    return variables[name] ?? whole;
  });
  return expanded === '~' || expanded.startsWith('~/') ? path.join(home, expanded.slice(1)) : expanded;
}

/**
 * The ALFWorld data folder, absolute: `data_root` when set, else `$ALFWORLD_DATA`; undefined when
 * neither says.
 */
export function resolveDataFolder(dataFolder: string, variables: NodeJS.ProcessEnv, home: string): string | undefined {
  const root = dataFolder.trim() === '' ? (variables.ALFWORLD_DATA ?? '') : expandPath(dataFolder, variables, home);
  return root.trim() === '' ? undefined : path.resolve(root);
}

/**
 * Where a game file is: absolute as given, else under the data folder (`data_root`, else
 * `$ALFWORLD_DATA`). Unlike the original, a relative path with no data folder set is an error the
 * caller reports, not a path tried against whatever the working directory happens to be.
 */
export function resolveGameFile(gamefile: string, dataFolder: string, variables: NodeJS.ProcessEnv, home: string): string | undefined {
  const expanded = expandPath(gamefile, variables, home);
  if (path.isAbsolute(expanded)) return path.normalize(expanded);
  const root = resolveDataFolder(dataFolder, variables, home);
  return root === undefined ? undefined : path.resolve(root, expanded);
}
