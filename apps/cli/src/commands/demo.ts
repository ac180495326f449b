import type { RunConfigRequest } from '@skillopt/core';
import { overridesOf } from '../base-command.js';
import { runConfigRequestOf } from '../run-setup/command-config.js';
import { shippedDemoConfigFile } from '../run-setup/shipped-demo.js';
import Train from './train.js';

/**
 * `skillopt train` of the demo shipped in this package: the same command, flags and output, with
 * the shipped config instead of --config and a project config (a demo is the same run anywhere).
 */
export default class Demo extends Train {
  static override summary = 'Train the built-in demo on the simulated model: no config, no API key, no network.';
  static override description =
    "Trains the demo that ships with the CLI, exactly as `skillopt train --config <its config>` would: two epochs over SkillOpt's own 126 general-knowledge questions (60 train, 30 validation, 36 test) with the simulated model as target and optimizer, into a run directory under the working directory. No project config is read. The run resumes with `skillopt train --resume <run directory>` and is inspected with `skillopt runs show <run directory>`.";
  static override examples = [
    { description: 'Train the demo into outputs/', command: '<%= config.bin %> demo' },
    { description: 'Into a directory of your choice, one epoch', command: '<%= config.bin %> demo --out runs/demo --set train.num_epochs=1' },
    { description: 'Stream the run events as JSON lines', command: '<%= config.bin %> demo --json > events.jsonl' },
  ];
  // Train's flags without --config and --resume: train's run reads their absence as not given.
  static override flags = {
    set: Train.flags.set,
    'cfg-options': Train.flags['cfg-options'],
    out: Train.flags.out,
    json: Train.flags.json,
    'redis-url': Train.flags['redis-url'],
    'redis-close-timeout-ms': Train.flags['redis-close-timeout-ms'],
    'redis-heartbeat-interval-ms': Train.flags['redis-heartbeat-interval-ms'],
    'redis-heartbeat-ttl-ms': Train.flags['redis-heartbeat-ttl-ms'],
  } as typeof Train.flags;

  protected override runConfigRequest(flags: { set: string[]; 'cfg-options': string[] }, workingDirectory: string): Promise<RunConfigRequest> {
    return runConfigRequestOf({
      configFile: shippedDemoConfigFile(this.config.root),
      ignoreProjectConfig: true,
      overrides: overridesOf(flags),
      workingDirectory,
    });
  }
}
