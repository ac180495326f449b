import { taskItemSchema, type TaskItem } from '@skillopt/contract';
import { formatZodIssues } from '@skillopt/runtime-kit';
import type { z } from 'zod';
import { createDataInvalidError, describeItemSource, type ItemSource } from './data-invalid-error.js';
import type { ItemsFileOptions } from './items-file-text.js';
import { readRawItemsFile, type RawItem } from './raw-items-file.js';

/**
 * Turns one raw value of a split file into a TaskItem. Either a zod schema (usually an object schema
 * with a `.transform` that renames the benchmark's fields to `id`, `taskType`, `question`,
 * `references`) or a function; a function signals a bad item by throwing.
 */
export type TaskItemMapper<Item extends TaskItem = TaskItem> = z.ZodType<Item> | ((value: unknown, source: ItemSource) => Item);

function applyMapper<Item extends TaskItem>(mapper: TaskItemMapper<Item>, raw: RawItem): Item {
  const where = describeItemSource(raw.source);
  if (typeof mapper === 'function') {
    try {
      return mapper(raw.value, raw.source);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw createDataInvalidError(`${where}: ${reason}`, { ...raw.source }, error);
    }
  }
  const parsed = mapper.safeParse(raw.value);
  if (!parsed.success) {
    throw createDataInvalidError(`${where}: ${formatZodIssues(parsed.error)}`, { ...raw.source }, parsed.error);
  }
  return parsed.data;
}

/**
 * Maps raw values to TaskItems and checks what every consumer relies on: each result is a valid
 * TaskItem (even if the mapper forgot a field) and ids are unique, since ids key the rollout cache,
 * resume and per-item artifacts (the original's issue #105).
 */
export function mapRawItems<Item extends TaskItem>(rawItems: readonly RawItem[], mapper: TaskItemMapper<Item>): Item[] {
  const firstSourceById = new Map<string, ItemSource>();
  const items: Item[] = [];
  for (const raw of rawItems) {
    const item = applyMapper(mapper, raw);
    const checked = taskItemSchema.safeParse(item);
    if (!checked.success) {
      throw createDataInvalidError(
        `${describeItemSource(raw.source)}: the mapper returned something that is not a TaskItem: ${formatZodIssues(checked.error)}`,
        { ...raw.source },
        checked.error,
      );
    }
    const firstSource = firstSourceById.get(item.id);
    if (firstSource !== undefined) {
      throw createDataInvalidError(`${describeItemSource(raw.source)}: duplicate id "${item.id}" (first seen at ${describeItemSource(firstSource)})`, {
        ...raw.source,
        id: item.id,
        firstSource,
      });
    }
    firstSourceById.set(item.id, raw.source);
    items.push(item);
  }
  return items;
}

/** Reads a `.json` or `.jsonl` file of items and maps each through `mapper` (see `mapRawItems`). */
export async function loadItemsFile<Item extends TaskItem>(file: string, mapper: TaskItemMapper<Item>, options: ItemsFileOptions = {}): Promise<Item[]> {
  const rawItems = await readRawItemsFile(file, options);
  return mapRawItems(rawItems, mapper);
}
