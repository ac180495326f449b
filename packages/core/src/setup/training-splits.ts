import { ERROR_CODES, SkillOptError, type SplitName, type TaskItem } from '@skillopt/contract';
import { resolvePoolFile, resolveSplitFile } from '@skillopt/env-kit';
import type { SkillOptConfig } from '../config/core-config-schema.js';

/** What each split a training run cannot do without is for, in the words of the error. */
const NEEDED_FOR: Partial<Record<SplitName, string>> = {
  train: 'training reflects on the train items',
  val: 'the gate scores every candidate on the val items',
};

/**
 * A run that trains needs train items to reflect on and val items for the gate. An env that loaded
 * none of either is the user's to fix, so it is a `data-invalid` error (exit 2) that names the
 * split, the file it came from (for the split keys env-kit reads) and what to change — before
 * anything is estimated, created or paid for.
 */
export async function checkTrainingSplits(
  config: SkillOptConfig,
  environmentId: string,
  splits: Readonly<Record<SplitName, readonly TaskItem[]>>,
): Promise<void> {
  for (const [split, neededFor] of Object.entries(NEEDED_FOR) as Array<[SplitName, string]>) {
    if (splits[split].length > 0) continue;
    const total = splits.train.length + splits.val.length + splits.test.length;
    throw new SkillOptError({
      code: ERROR_CODES.dataInvalid,
      category: 'user',
      message: `the ${split} split is empty: ${await describeEmptySplit(config, environmentId, split, total)} (${neededFor})`,
      details: { split, environmentId },
    });
  }
}

async function describeEmptySplit(config: SkillOptConfig, environmentId: string, split: SplitName, total: number): Promise<string> {
  const { split_mode: splitMode, split_dir: splitDirectory, data_path: dataPath, split_ratio: splitRatio } = config.env;
  if (splitMode === 'split_dir' && splitDirectory !== undefined) {
    const file = await resolveSplitFile(splitDirectory, split).catch(() => undefined);
    return file === undefined
      ? `the env "${environmentId}" loaded no ${split} items from under ${splitDirectory}; add items to its ${split} file, or point env.split_dir at a split root whose ${split} split has items`
      : `${file} holds no items; add ${split} items to it, or point env.split_dir at a split root whose ${split} split has items`;
  }
  if (splitMode === 'ratio' && dataPath !== undefined) {
    const pool = await resolvePoolFile(dataPath).catch(() => dataPath);
    return `env.split_ratio ${splitRatio} of the ${total} items in ${pool} leaves none for ${split}; add items to ${pool}, or give ${split} a larger share in env.split_ratio`;
  }
  return `the env "${environmentId}" loaded no ${split} items; check the env.* settings that say where it reads them from`;
}
