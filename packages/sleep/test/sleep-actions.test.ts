import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runSleepCommandLine } from '../src/command-line/sleep-command-line.js';
import { SLEEP_ACTIONS, type SleepAction } from '../src/command-line/sleep-actions.js';

// The command's definitions are what it parses with; its usage must name every action and every
// option of them, so that the help, the plugins' generated lists and the parser never disagree.

async function usage(): Promise<string> {
  let text = '';
  await runSleepCommandLine(['--help'], {
    write: (chunk) => (text += chunk),
    writeError: () => undefined,
    workingDirectory: process.cwd(),
    fallbackDirectories: [],
  });
  return text;
}

describe("skillopt-sleep's definitions and its usage", () => {
  it('name the same actions and options', async () => {
    const text = await usage();
    const missing = SLEEP_ACTIONS.flatMap((action) => [
      ...(text.includes(`skillopt-sleep ${action.name} `) ? [] : [`the ${action.name} line`]),
      ...Object.keys(action.options)
        .filter((name) => !text.includes(`--${name}`))
        .map((name) => `${action.name} --${name}`),
    ]);
    expect(missing).toEqual([]);
  });

  it('parse with the definitions: an option of another action is refused', async () => {
    const io = { write: () => undefined, writeError: () => undefined, workingDirectory: process.cwd(), fallbackDirectories: [] };
    await expect(runSleepCommandLine(['status', '--hour', '3'], io)).rejects.toThrow(/Unknown option '--hour'/);
  });
});

describe('options that may not be given together', () => {
  // The MCP server refuses these before it runs anything, from the definitions; the command
  // refuses them too, as a usage error, so both front ends say no to the same calls.
  const values: Record<string, string> = {
    since: '2026-01-01',
    lookback: '1d',
    project: '.',
    persona: 'researcher',
    tasks: 'tasks.json',
    skill: 'SKILL.md',
    staging: 'staged',
  };

  test('are refused by the command as a usage error, each group of each action', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'skillopt-sleep-exclusive-'));
    const io = { write: () => undefined, writeError: () => undefined, workingDirectory: folder, fallbackDirectories: [] };
    try {
      const groups = (SLEEP_ACTIONS as readonly SleepAction[]).flatMap((action) => (action.exclusive ?? []).map((group) => ({ action, group })));
      expect(groups.length).toBeGreaterThan(0);
      for (const { action, group } of groups) {
        const flags = group.flatMap((option) => {
          const definition = action.options[option];
          if (definition === undefined) throw new Error(`${action.name}'s exclusive group names --${option}, which it does not have`);
          return definition.type === 'boolean' ? [`--${option}`] : [`--${option}`, values[option] ?? 'x'];
        });
        const state = 'state-dir' in action.options ? ['--state-dir', path.join(folder, 'state')] : [];
        await expect(runSleepCommandLine([action.name, ...flags, ...state], io)).rejects.toMatchObject({
          category: 'user',
          message: expect.stringMatching(/not both|give it without|, not --/),
        });
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
