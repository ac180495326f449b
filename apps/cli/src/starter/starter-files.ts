import { SEARCHQA_INITIAL_SKILL } from '@skillopt/env-searchqa';
import type { ScaffoldFile } from '../scaffold/context.js';
import { readShippedDemoItems } from '../run-setup/shipped-demo.js';
import type { StarterBackend } from './starter-backends.js';
import { buildStarterConfig, STARTER_CONFIG_PATH } from './starter-config.js';

/** A file of the starter project, with what it is for (listed to the user). */
export interface StarterFile extends ScaffoldFile {
  note: string;
}

/**
 * How many of the demo's questions the starter takes per split: the first ones, which cycle
 * through the demo's six answer types (three of each to train on, two of each in val and test),
 * so the simulated model has a failure of every kind to learn from and training takes seconds.
 */
const STARTER_SPLIT_SIZES = { train: 18, val: 12, test: 12 } as const;

const SPLIT_NOTES = { train: 'to train on', val: 'that gate each change to the skill', test: 'for the final test' } as const;

/** Every file `skillopt init` writes, in the order they are listed. `cliRoot` holds the shipped demo. */
export async function starterFiles(backend: StarterBackend, cliRoot: string): Promise<StarterFile[]> {
  const files: StarterFile[] = [{ path: STARTER_CONFIG_PATH, content: buildStarterConfig(backend), note: 'the run config; skillopt finds it by its name' }];
  for (const split of ['train', 'val', 'test'] as const) {
    const items = (await readShippedDemoItems(cliRoot, split)).slice(0, STARTER_SPLIT_SIZES[split]);
    files.push({
      path: `data/${split}/items.json`,
      content: `${JSON.stringify(items, null, 2)}\n`,
      note: `${items.length} questions ${SPLIT_NOTES[split]}`,
    });
  }
  files.push({ path: 'skills/initial.md', content: SEARCHQA_INITIAL_SKILL, note: 'the skill training starts from' });
  return files;
}
