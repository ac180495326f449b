import { createCostCalculator } from '@skillopt/backends-kit';
import type { ChatModel } from '@skillopt/contract';
import { backendSectionFor } from '../config/package-sections.js';
import { priceOverridesFromConfig } from '../config/price-overrides.js';
import type { SkillOptConfig } from '../config/core-config-schema.js';
import { budgetsFromConfig } from '../ledger/config-budgets.js';
import { createLedger, type Ledger } from '../ledger/ledger.js';
import { meterChatModel } from '../ledger/metered-models.js';
import { acceptBackend } from '../resolution/specification-versions.js';
import { type RunConfigRequest, resolveRunConfig } from './configured-packages.js';
import { roleChatModel } from './role-chat-model.js';

export interface PrepareChatModelOptions extends RunConfigRequest {
  /** Whose model: the config's `model.<role>` on `model.<role>_backend`. */
  role: 'target' | 'optimizer';
  /** The ledger file every call is appended to as it happens (a killed command's calls stay in it). */
  ledgerFile: string;
  /** What to run again once a spent budget (the config's `budget` section, checked before every call) is raised. */
  budgetResumeCommand?: string;
  /** The command's folder for files its backend keeps between its runs (as prepareRun's `backendFilesDirectory`, given as it is). */
  backendFilesDirectory?: string;
}

export interface PreparedChatModel {
  config: SkillOptConfig;
  /** The role's model, every call metered into `ledger`. */
  model: ChatModel;
  ledger: Ledger;
  /** The backend is a simulator (no provider, no key): what a display labels SIMULATED. */
  simulated: boolean;
}

/**
 * Run setup for a command that calls one model outside a training run (Sleep's LLM miner): the
 * config resolved against the installed packages as `prepareRun` resolves it, the role's backend
 * created from its own section, and its model metered into a ledger file priced with the
 * packages' price tables and the config's overrides, and held to the config's budgets before
 * every call. So its calls are in a ledger, as every paid call is.
 */
export async function prepareChatModel(options: PrepareChatModelOptions): Promise<PreparedChatModel> {
  const resolved = await resolveRunConfig(options);
  const { config } = resolved;
  const backendName = config.model[`${options.role}_backend`];
  const resolvedBackend = resolved.backendPackages.get(backendName);
  if (resolvedBackend === undefined) throw new Error(`run setup: the backend "${backendName}" was resolved but is missing`);
  const backend = acceptBackend(
    await resolvedBackend.module.createBackend(backendSectionFor(config, resolvedBackend.module.manifest, options.backendFilesDirectory)),
    `the backend of ${resolvedBackend.packageName ?? backendName}`,
  );
  const priceTable = resolvedBackend.module.priceTable ?? [];
  const ledger = createLedger({
    filePath: options.ledgerFile,
    costCalculator: createCostCalculator(priceTable, priceOverridesFromConfig(config)),
    budgets: budgetsFromConfig(config),
    budgetMessages: { resumeCommand: options.budgetResumeCommand ?? 'the same command' },
  });
  // Outside a training run there are no steps to stop between: a spent limit stops the next call.
  const model = meterChatModel(roleChatModel(backend, backendName, options.role, config.model[options.role]), {
    role: options.role,
    ledger,
    enforceBudget: true,
  });
  return { config, model, ledger, simulated: backend.simulator !== undefined };
}
