import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SLEEP_ACTIONS } from '@skillopt/sleep/commands';
import type { ShellRunResult } from '../src/host-services';
import type { PluginConfig } from '../src/index';
import { loadPlugin, ShellStandIn, type ToolsStandIn } from './host-stand-ins';

/**
 * The plugin loaded into a real Cordis context, with stand-ins for DeepSeek Harness's tool registry
 * and shell: the seven tools and their parameters, what reaches the command line and what never
 * does, and real `status` and `dry-run` commands run through the built `skillopt-sleep` bin.
 */
let root: string;
let home: string;
let project: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'plugin-dsh-'));
  home = path.join(root, 'home');
  project = path.join(root, 'my project');
  mkdirSync(home);
  mkdirSync(project);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const sleepBin = path.resolve(__dirname, '..', '..', 'sleep', 'bin', 'skillopt-sleep.js');
const succeeded: ShellRunResult = {
  exitCode: 0,
  timedOut: false,
  stdout: { text: '{"type":"result"}\n', truncated: false },
  stderr: { text: '', truncated: false },
};

/** The plugin with a shell that records the command line and answers `succeeded` without running it. */
async function recordingPlugin(config: Partial<PluginConfig> = {}): Promise<{ tools: ToolsStandIn; shell: ShellStandIn }> {
  const shell = new ShellStandIn({ workdir: project, home, answer: succeeded });
  const { tools } = await loadPlugin(shell, config);
  return { tools, shell };
}

/** The one command line the shell was given, split back into words by bash itself. */
async function lastCommandWords(shell: ShellStandIn): Promise<string[]> {
  const printer = new ShellStandIn({ workdir: project, home });
  const words = await printer.run?.(printer.resolve({ command: `printf '%s\\0' ${(shell.commandLines.at(-1) as string).replace(/^'node'/, '')}` }));
  return (words?.stdout.text ?? '').split('\0').slice(0, -1);
}

describe('the skillopt plugin in a Cordis context', () => {
  it('registers the seven tools, each with the parameters its skillopt-sleep action defines', async () => {
    const { tools } = await recordingPlugin();
    const parameters = Object.fromEntries(tools.registered.map((tool) => [tool.name, Object.keys(tool.parameters.properties ?? {})]));
    expect(parameters).toEqual({
      skillopt_status: ['project'],
      skillopt_dry_run: ['tasks', 'persona', 'skill', 'backend', 'model', 'out'],
      skillopt_run: ['project', 'backend', 'model', 'sources', 'max_sessions', 'max_tasks', 'edit_budget', 'skill', 'since', 'lookback', 'tasks', 'persona'],
      skillopt_adopt: ['project', 'staging', 'skills', 'all_skills', 'undo'],
      skillopt_harvest: ['projects', 'all_projects', 'sources', 'since', 'lookback', 'max_sessions'],
      skillopt_schedule: [
        'project',
        'hour',
        'minute',
        'backend',
        'model',
        'sources',
        'max_sessions',
        'max_tasks',
        'edit_budget',
        'skill',
        'env_file',
        'systemd',
      ],
      skillopt_unschedule: ['project', 'systemd'],
    });
    for (const tool of tools.registered) expect(tool.parameters.additionalProperties).toBe(false);
  });

  it("describes every parameter in the words of Sleep's own option, a repeatable one as a list", async () => {
    const { tools } = await recordingPlugin();
    const actions = { skillopt_dry_run: 'dry-run' } as Record<string, string>;
    for (const tool of tools.registered) {
      const action = SLEEP_ACTIONS.find((candidate) => candidate.name === (actions[tool.name] ?? tool.name.replace('skillopt_', '')));
      for (const [parameter, schema] of Object.entries(tool.parameters.properties ?? {})) {
        const option = Object.entries(action?.options ?? {}).find(
          ([name, definition]) => `${name.replaceAll('-', '_')}${'multiple' in definition && definition.multiple ? 's' : ''}` === parameter,
        );
        expect({ tool: tool.name, parameter, description: schema.description, list: schema.type === 'array' }).toEqual({
          tool: tool.name,
          parameter,
          description: option?.[1].description,
          list: option !== undefined && 'multiple' in option[1] && option[1].multiple === true,
        });
      }
    }
    const adopt = SLEEP_ACTIONS.find((action) => action.name === 'adopt');
    expect(tools.tool('skillopt_adopt').parameters.properties?.skills).toEqual({
      type: 'array',
      items: { type: 'string' },
      description: adopt?.options.skill.description,
    });
    expect(tools.tool('skillopt_run').parameters.properties?.max_tasks).toEqual({ type: 'integer', description: 'the most tasks mined' });
    expect(tools.tool('skillopt_run').parameters.properties?.backend?.enum).toEqual([
      'sim',
      'openai',
      'anthropic',
      'claude-code',
      'codex',
      'copilot',
      'opencode',
      'pi',
      'cursor',
      'handoff',
    ]);
  });

  it('runs node with the absolute path of the skillopt-sleep bin, the action, the options and --json', async () => {
    const { tools, shell } = await recordingPlugin();
    await tools.call('skillopt_status', { project });
    expect(shell.commandLines).toEqual([`'node' '${sleepBin}' 'status' '--project' '${project}' '--json'`]);
    expect(shell.requests[0]).toMatchObject({ timeoutMs: 600_000 });
    expect(shell.requests[0]?.env).toBeUndefined();
  });

  it('passes a config default only to the tools that declare its option: maxTasks reaches run, never status', async () => {
    const { tools, shell } = await recordingPlugin({ project, maxTasks: 7, backend: 'openai', model: 'gpt-5.1' });
    await tools.call('skillopt_status', {});
    await tools.call('skillopt_run', {});
    await tools.call('skillopt_dry_run', { persona: 'researcher', model: 'gpt-5-mini' });
    expect(shell.commandLines[0]).toBe(`'node' '${sleepBin}' 'status' '--project' '${project}' '--json'`);
    expect(shell.commandLines[1]).toBe(
      `'node' '${sleepBin}' 'run' '--project' '${project}' '--backend' 'openai' '--model' 'gpt-5.1' '--max-tasks' '7' '--json'`,
    );
    // dry-run has no --project: the config's project never reaches it; the call's model wins over the config's.
    expect(shell.commandLines[2]).toBe(`'node' '${sleepBin}' 'dry-run' '--persona' 'researcher' '--backend' 'openai' '--model' 'gpt-5-mini' '--json'`);
  });

  it('adopts the named skills, all of them, a staging folder or the undo, one at a time', async () => {
    const { tools, shell } = await recordingPlugin();
    await tools.call('skillopt_adopt', { skills: ['a', 'b'] });
    expect(shell.commandLines.at(-1)).toBe(`'node' '${sleepBin}' 'adopt' '--skill' 'a' '--skill' 'b' '--json'`);
    await tools.call('skillopt_adopt', { all_skills: true, project });
    expect(shell.commandLines.at(-1)).toBe(`'node' '${sleepBin}' 'adopt' '--project' '${project}' '--all-skills' '--json'`);
    await tools.call('skillopt_adopt', { undo: true, all_skills: false });
    expect(shell.commandLines.at(-1)).toBe(`'node' '${sleepBin}' 'adopt' '--undo' '--json'`);

    await expect(tools.call('skillopt_adopt', { all_skills: true, skills: ['a'] })).rejects.toThrow('skillopt_adopt takes at most one of skills, all_skills.');
    await expect(tools.call('skillopt_adopt', { staging: '/tmp/staging/1', undo: true })).rejects.toMatchObject({ code: 'config-invalid', category: 'user' });
    expect(shell.commandLines).toHaveLength(3);
  });

  it("refuses what skillopt-sleep would refuse: Sleep's exclusive options, as the tool declares them", async () => {
    const { tools, shell } = await recordingPlugin();
    await expect(tools.call('skillopt_dry_run', { persona: 'researcher', skill: '/tmp/SKILL.md' })).rejects.toThrow(
      'skillopt_dry_run takes at most one of persona, skill.',
    );
    await expect(tools.call('skillopt_run', { since: '2026-12-01', lookback: '24h' })).rejects.toThrow('skillopt_run takes at most one of since, lookback.');
    expect(shell.commandLines).toHaveLength(0);
  });

  it('leaves out the config default whose alternative the call chose', async () => {
    const { tools, shell } = await recordingPlugin({ project });
    await tools.call('skillopt_harvest', { all_projects: true, lookback: '72h' });
    expect(shell.commandLines.at(-1)).toBe(`'node' '${sleepBin}' 'harvest' '--all-projects' '--lookback' '72h' '--json'`);
    await tools.call('skillopt_harvest', { sources: ['claude-code', 'codex'] });
    expect(shell.commandLines.at(-1)).toBe(`'node' '${sleepBin}' 'harvest' '--project' '${project}' '--source' 'claude-code' '--source' 'codex' '--json'`);
  });

  it('checks hour and minute: 0-23 and 0-59, whole numbers', async () => {
    const { tools, shell } = await recordingPlugin();
    await tools.call('skillopt_schedule', { project, hour: 23, minute: 0 });
    expect(shell.commandLines.at(-1)).toBe(`'node' '${sleepBin}' 'schedule' '--project' '${project}' '--hour' '23' '--minute' '0' '--json'`);
    await expect(tools.call('skillopt_schedule', { hour: 24 })).rejects.toThrow('hour 24 was refused: it must be a whole number from 0 to 23.');
    await expect(tools.call('skillopt_schedule', { minute: 60 })).rejects.toThrow('minute 60 was refused');
    await expect(tools.call('skillopt_schedule', { hour: -1 })).rejects.toThrow('hour -1 was refused');
    await expect(tools.call('skillopt_schedule', { hour: 2.5 })).rejects.toThrow('hour 2.5 was refused');
    await expect(tools.call('skillopt_schedule', { hour: '3' })).rejects.toThrow('hour "3" was refused');
    expect(shell.commandLines).toHaveLength(1);
  });

  it('refuses hostile paths and names before the shell is called', async () => {
    const { tools, shell } = await recordingPlugin();
    const hostile = [
      "x'; touch /tmp/owned; '",
      '$(touch /tmp/owned)',
      '`touch /tmp/owned`',
      'a;b',
      'a|b',
      'a && b',
      'a > /etc/passwd',
      '"quoted"',
      'line\nbreak',
      'carriage\rreturn',
      'nul\u0000byte',
      'escape\u001b[31m',
      'delete\u007f',
      '--undo',
      '~/project',
      'a%b',
      'C:\\Users\\me',
      '*',
      'a?b',
      '{a,b}',
      '(sub)',
      '',
    ];
    for (const value of hostile) {
      await expect(tools.call('skillopt_status', { project: value })).rejects.toMatchObject({ code: 'config-invalid', category: 'user' });
      await expect(tools.call('skillopt_adopt', { staging: value })).rejects.toThrow('was refused');
      await expect(tools.call('skillopt_adopt', { skills: ['fine', value] })).rejects.toThrow('was refused');
      await expect(tools.call('skillopt_run', { model: value })).rejects.toThrow('was refused');
    }
    await expect(tools.call('skillopt_run', { backend: 'openai; rm -rf /' })).rejects.toThrow('the backends are sim, openai');
    await expect(tools.call('skillopt_run', { lookback: '72h; id' })).rejects.toThrow('was refused');
    expect(shell.commandLines).toEqual([]);
  });

  it('refuses a parameter the tool does not declare, and a value of the wrong type', async () => {
    const { tools, shell } = await recordingPlugin();
    await expect(tools.call('skillopt_status', { project, max_tasks: 3 })).rejects.toThrow(
      'skillopt_status has no parameter max_tasks; its parameters are project.',
    );
    await expect(tools.call('skillopt_adopt', { undo: 'yes' })).rejects.toThrow('undo must be true or false.');
    await expect(tools.call('skillopt_adopt', { skills: 'a' })).rejects.toThrow('skills must be a list.');
    await expect(tools.call('skillopt_status', ['--undo'])).rejects.toThrow('skillopt_status takes an object of named parameters.');
    expect(shell.commandLines).toEqual([]);
  });

  it('refuses a config default that is not a plain path before the shell is called', async () => {
    const { tools, shell } = await recordingPlugin({ project: '/tmp/$(id)' });
    await expect(tools.call('skillopt_status', {})).rejects.toThrow(`the plugin's project setting "/tmp/$(id)" was refused`);
    expect(shell.commandLines).toEqual([]);
  });

  it('leaves adoption on nights and unscheduling every project to the operator', async () => {
    const { tools, shell } = await recordingPlugin();
    await tools.call('skillopt_run', {});
    expect(shell.commandLines.at(-1)).toBe(`'node' '${sleepBin}' 'run' '--json'`);
    await expect(tools.call('skillopt_run', { auto_adopt: true })).rejects.toThrow('skillopt_run has no parameter auto_adopt');
    await expect(tools.call('skillopt_unschedule', { all: true })).rejects.toThrow('skillopt_unschedule has no parameter all');

    const operator = await recordingPlugin({ autoAdopt: true, unscheduleAll: true, project });
    await operator.tools.call('skillopt_run', {});
    await operator.tools.call('skillopt_schedule', {});
    await operator.tools.call('skillopt_unschedule', { all: true });
    await operator.tools.call('skillopt_unschedule', {});
    expect(operator.shell.commandLines).toEqual([
      `'node' '${sleepBin}' 'run' '--project' '${project}' '--auto-adopt' '--json'`,
      `'node' '${sleepBin}' 'schedule' '--project' '${project}' '--auto-adopt' '--json'`,
      `'node' '${sleepBin}' 'unschedule' '--all' '--json'`,
      `'node' '${sleepBin}' 'unschedule' '--project' '${project}' '--json'`,
    ]);
  });

  it('gives skillopt-sleep the variables the operator passes on, from the harness’s environment', async () => {
    process.env.PLUGIN_DSH_TEST_KEY = 'sk-test';
    try {
      const { tools, shell } = await recordingPlugin({ passVariables: ['PLUGIN_DSH_TEST_KEY', 'PLUGIN_DSH_UNSET'] });
      await tools.call('skillopt_status', {});
      expect(shell.requests[0]?.env).toEqual({ PLUGIN_DSH_TEST_KEY: 'sk-test' });
      expect(shell.commandLines[0]).not.toContain('sk-test');
    } finally {
      delete process.env.PLUGIN_DSH_TEST_KEY;
    }
  });

  it('is not applied with a config Cordis refuses', async () => {
    const logged = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const shell = new ShellStandIn({ workdir: project, home, answer: succeeded });
      const { tools, error } = await loadPlugin(shell, { backend: 'not-a-backend' });
      expect(error?.message).toContain('$.backend expected "sim" | "openai"');
      expect(tools.registered).toEqual([]);
    } finally {
      logged.mockRestore();
    }
  });

  it('reports the exit code, a timeout or a signal, the output and the result line', async () => {
    const answering = async (answer: ShellRunResult) => {
      const shell = new ShellStandIn({ workdir: project, home, answer, executeEra: true });
      const { tools } = await loadPlugin(shell);
      return tools.call('skillopt_status', {});
    };
    const output = (text: string) => ({ text, truncated: false });
    await expect(answering({ exitCode: 2, timedOut: false, stdout: output(''), stderr: output('skillopt-sleep: --project needs a value\n') })).resolves.toEqual(
      {
        value: { tool: 'skillopt_status', exit: 2, output: 'skillopt-sleep: --project needs a value' },
        text: '[skillopt skillopt_status] exit=2\nskillopt-sleep: --project needs a value',
      },
    );
    await expect(answering({ exitCode: null, timedOut: true, stdout: output(''), stderr: output('') })).resolves.toMatchObject({
      text: '[skillopt skillopt_status] exit=timeout\n(no output)',
    });
    await expect(answering({ exitCode: null, timedOut: false, stdout: output('started\n'), stderr: output('') })).resolves.toMatchObject({
      text: '[skillopt skillopt_status] exit=signal\nstarted',
    });
    await expect(
      answering({
        exitCode: 0,
        timedOut: false,
        stdout: { text: 'progress\n{"type":"result","nights":1}\n', truncated: true, spillPath: '/tmp/spill/stdout' },
        stderr: output('a warning\n'),
      }),
    ).resolves.toEqual({
      value: {
        tool: 'skillopt_status',
        exit: 0,
        output: '[standard output cut to its last part; all of it is in /tmp/spill/stdout]\nprogress\na warning',
        result: { type: 'result', nights: 1 },
      },
      text: '[skillopt skillopt_status] exit=0\n[standard output cut to its last part; all of it is in /tmp/spill/stdout]\nprogress\na warning\nresult: {"type":"result","nights":1}',
    });
  });
});

describe('the tools run through a shell', () => {
  it('keep every hostile word one word: bash reads back exactly what was quoted', async () => {
    const { tools, shell } = await recordingPlugin();
    await tools.call('skillopt_adopt', { project, skills: ['skill-one', 'ünïcødé_名前'] });
    expect(await lastCommandWords(shell)).toEqual([sleepBin, 'adopt', '--project', project, '--skill', 'skill-one', '--skill', 'ünïcødé_名前', '--json']);
  });

  it('run a real status, and a real dry-run night of the researcher persona, through the built skillopt-sleep bin', async () => {
    const shell = new ShellStandIn({ workdir: project, home });
    const { tools } = await loadPlugin(shell);

    const status = await tools.call('skillopt_status', { project });
    expect(status.text.split('\n')[0]).toBe('[skillopt skillopt_status] exit=0');
    expect(status.value).toMatchObject({ exit: 0, result: { type: 'result', project, nights: 0, proposals: [] } });

    const night = await tools.call('skillopt_dry_run', { persona: 'researcher' });
    expect(night.text.split('\n')[0]).toBe('[skillopt skillopt_dry_run] exit=0');
    expect(night.value).toMatchObject({ exit: 0, result: { type: 'result', runDirectory: expect.stringContaining(path.join(home, '.skillopt-sleep')) } });
    expect(night.text).toContain('result: {"type":"result"');
    expect(existsSync(path.join(home, '.skillopt-sleep'))).toBe(true);
  }, 120_000);

  it('report a timeout when the command outlives the config’s timeoutMs', async () => {
    const shell = new ShellStandIn({ workdir: project, home, executeEra: true });
    const { tools } = await loadPlugin(shell, { timeoutMs: 1 });
    const night = await tools.call('skillopt_dry_run', { persona: 'researcher' });
    expect(night.text.split('\n')[0]).toBe('[skillopt skillopt_dry_run] exit=timeout');
    expect(shell.requests[0]?.timeoutMs).toBe(1);
  });
});
