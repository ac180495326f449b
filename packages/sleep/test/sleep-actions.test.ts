import { runSleepCommandLine } from '../src/command-line/sleep-command-line.js';
import { SLEEP_ACTIONS } from '../src/command-line/sleep-actions.js';

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
