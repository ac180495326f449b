import path from 'node:path';
import { ERROR_CODES, SkillOptError, type Environment, type RolloutContext, type RolloutResult, type TaskItem } from '@skillopt/contract';
import { createSplitSource } from '@skillopt/env-kit';
import { rolloutAgentTask } from './agent-rollout.js';
import { rolloutCodegenTask } from './codegen-rollout.js';
import { parseSpreadsheetBenchConfig, type SpreadsheetBenchConfig, type SpreadsheetBenchConfigInput } from './config.js';
import initialSkillText from './initial-skill.md';
import { SPREADSHEETBENCH_TASK_TYPES, type SpreadsheetRawItem, spreadsheetRowMapper, type SpreadsheetTaskItem } from './items.js';
import { rolloutReactTask } from './react-rollout.js';
import { loadSpreadsheetTasks, readDatasetRows } from './task-loading.js';
import { createWorkbookRuntime, type WorkbookRuntime } from './workbook-runtime.js';

/** The env's id: what `env.name` says in a config. */
export const SPREADSHEETBENCH_ENVIRONMENT_ID = 'spreadsheetbench';

/** The initial skill shipped with the package (markdown, our own wording). */
export const SPREADSHEETBENCH_INITIAL_SKILL: string = initialSkillText;

function asSpreadsheetItem(item: TaskItem): SpreadsheetTaskItem {
  const candidate = item as Partial<SpreadsheetTaskItem>;
  if (
    typeof candidate.instruction !== 'string' ||
    !Array.isArray(candidate.cases) ||
    candidate.cases.length === 0 ||
    typeof candidate.evaluatedPosition !== 'string'
  ) {
    throw new SkillOptError({
      code: ERROR_CODES.dataInvalid,
      category: 'user',
      message: `spreadsheetbench item ${item.id} has no instruction, test cases or answer position; load items with this env's loadSplit`,
      details: { id: item.id },
    });
  }
  return candidate as SpreadsheetTaskItem;
}

/** The folder task folders are relative to: `data_root`, else the split root (or the pool file's folder). */
function dataRootOf(config: SpreadsheetBenchConfig): string {
  if (config.data_root.trim() !== '') return path.resolve(config.data_root);
  return config.split_mode === 'split_dir' ? path.resolve(config.split_dir) : path.dirname(path.resolve(config.data_path));
}

/** The SpreadsheetBench environment for a config section (validated here, so a raw object works too). */
export function createSpreadsheetBenchEnvironment(input: SpreadsheetBenchConfigInput | SpreadsheetBenchConfig = {}): Environment {
  const config = parseSpreadsheetBenchConfig(input);
  const splits = createSplitSource(config, spreadsheetRowMapper);
  const dataRoot = dataRootOf(config);
  let runtime: Promise<WorkbookRuntime> | undefined;
  let datasetRows: Promise<Map<string, SpreadsheetRawItem>> | undefined;
  // The interpreter and the sandbox are found once, on first use (loading a split already needs them); a failure is not remembered.
  const workbookRuntime = (): Promise<WorkbookRuntime> => {
    if (runtime === undefined) {
      const creating = createWorkbookRuntime(config);
      runtime = creating;
      creating.catch(() => {
        if (runtime === creating) runtime = undefined;
      });
    }
    return runtime;
  };
  const rowsOfDataset = (): Promise<Map<string, SpreadsheetRawItem>> | undefined => {
    if (config.dataset_file.trim() === '') return undefined;
    datasetRows ??= readDatasetRows(path.resolve(config.dataset_file));
    return datasetRows;
  };

  return {
    specificationVersion: 'v1',
    id: SPREADSHEETBENCH_ENVIRONMENT_ID,
    targetKinds: ['chat', 'agent'],
    taskTypes: SPREADSHEETBENCH_TASK_TYPES,
    initialSkill: async () => SPREADSHEETBENCH_INITIAL_SKILL,
    async loadSplit(split) {
      const rows = await splits.load(split);
      return loadSpreadsheetTasks(rows, { dataRoot, datasetRows: await rowsOfDataset(), runtime: await workbookRuntime() });
    },
    async setup() {
      await workbookRuntime();
    },
    async teardown() {
      const created = runtime;
      runtime = undefined;
      if (created !== undefined) await (await created.catch(() => undefined))?.dispose();
    },
    async rollout(taskItem: TaskItem, context: RolloutContext): Promise<RolloutResult> {
      context.signal.throwIfAborted();
      const item = asSpreadsheetItem(taskItem);
      const ready = await workbookRuntime();
      if (context.target.kind === 'agent') return rolloutAgentTask(config, ready, item, context.target.runner, context);
      return config.mode === 'react' ? rolloutReactTask(config, ready, item, context) : rolloutCodegenTask(config, ready, item, context);
    },
  };
}
