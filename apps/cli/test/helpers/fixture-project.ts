import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A throw-away user project for CLI tests: a package.json, a fixture env package installed in its
 * node_modules (`skillopt-env-fixture`, plain ESM written here so it depends on nothing), and a
 * config that trains on it with the simulated model, which the CLI itself provides. The env's setup
 * can hold a run at its start (see SKILLOPT_FIXTURE_SETUP_GATE below).
 */
export interface FixtureProject {
  directory: string;
  configFile: string;
  remove(): void;
}

const FIXTURE_ENV_SOURCE = `
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
const items = (prefix, count, offset) => Array.from({ length: count }, (_, index) => ({
  id: prefix + '-' + index,
  taskType: 'qa',
  question: 'What is ' + (offset + index) + ' plus 2?',
  references: [String(offset + index + 2)],
  answer_type: 'number',
}));
const splits = { train: items('train', 8, 10), val: items('val', 6, 30), test: items('test', 6, 50) };
const configSchema = {
  safeParse(input) {
    const value = input ?? {};
    const unknown = Object.keys(value).filter((key) => key !== 'flavour');
    if (unknown.length) return { success: false, error: new Error('unknown keys: ' + unknown.join(', ')) };
    return { success: true, data: { flavour: value.flavour ?? 'plain' } };
  },
  shape: { flavour: {} },
};
export const manifest = { kind: 'env', id: 'fixture', specificationVersion: 'v1', configSchema };
export function createEnvironment() {
  return {
    specificationVersion: 'v1',
    id: 'fixture',
    targetKinds: ['chat'],
    taskTypes: ['qa'],
    initialSkill: async () => '# Skill\\n\\nAnswer the question.\\n',
    // For tests that need a run held at its start: with SKILLOPT_FIXTURE_SETUP_GATE naming a folder,
    // setup writes setup-reached-<pid> there and waits until the folder has a file named "open".
    async setup() {
      const gate = process.env.SKILLOPT_FIXTURE_SETUP_GATE;
      if (!gate) return;
      writeFileSync(join(gate, 'setup-reached-' + process.pid), '');
      while (!existsSync(join(gate, 'open'))) await new Promise((resolve) => setTimeout(resolve, 20));
    },
    loadSplit: async (split) => splits[split],
    async rollout(item, { skill, target, signal }) {
      const reply = await target.model.generate({
        purpose: 'rollout',
        signal,
        messages: [
          { role: 'system', content: '# Skill\\n\\n' + skill + '\\n\\n# Task\\n\\nAnswer the question.' },
          { role: 'user', content: '## Question\\n\\n' + item.question },
        ],
      });
      const match = /<answer>([\\s\\S]*?)<\\/answer>/i.exec(reply.text);
      const prediction = (match ? match[1] : reply.text.trim().split('\\n').pop() ?? '').trim();
      const correct = item.references.includes(prediction);
      return {
        status: 'scored', id: item.id, taskType: item.taskType, hard: correct ? 1 : 0, soft: correct ? 1 : 0, prediction,
        reference: item.references[0],
        trajectory: { turns: [{ role: 'user', content: item.question }, { role: 'assistant', content: reply.text }, { role: 'environment', content: 'Extracted answer: ' + prediction + '\\nReference answer: ' + item.references[0] }] },
      };
    },
  };
}
`;

export function createFixtureProject(config: string = defaultConfig()): FixtureProject {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-cli-'));
  writeFileSync(path.join(directory, 'package.json'), JSON.stringify({ name: 'fixture-project', private: true }));
  const packageDirectory = path.join(directory, 'node_modules', 'skillopt-env-fixture');
  mkdirSync(packageDirectory, { recursive: true });
  writeFileSync(
    path.join(packageDirectory, 'package.json'),
    JSON.stringify({ name: 'skillopt-env-fixture', version: '1.0.0', type: 'module', exports: { '.': './index.js' } }),
  );
  writeFileSync(path.join(packageDirectory, 'index.js'), FIXTURE_ENV_SOURCE);
  const configFile = path.join(directory, 'train.yaml');
  writeFileSync(configFile, config);
  return { directory, configFile, remove: () => rmSync(directory, { recursive: true, force: true }) };
}

export function defaultConfig(): string {
  return [
    'model:',
    '  target: sim-target',
    '  optimizer: sim-optimizer',
    '  target_backend: sim',
    '  optimizer_backend: sim',
    'backends:',
    '  sim:',
    '    seed: 3',
    'train:',
    '  num_epochs: 1',
    '  batch_size: 4',
    'optimizer:',
    '  slow_update_samples: 4',
    'env:',
    '  name: fixture',
    '',
  ].join('\n');
}
