import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { loadPlugin, ShellStandIn } from './host-stand-ins';

/**
 * The built package as a harness loads it: the ESM entry through `import()`, the CommonJS one through
 * `require`, both a Cordis plugin whose tools run the bin of the @skillopt/sleep beside them.
 */
const packageRoot = path.resolve(__dirname, '..');
const sleepBin = path.resolve(packageRoot, '..', 'sleep', 'bin', 'skillopt-sleep.js');
const TOOLS = ['skillopt_status', 'skillopt_dry_run', 'skillopt_run', 'skillopt_adopt', 'skillopt_harvest', 'skillopt_schedule', 'skillopt_unschedule'];

describe('the built package', () => {
  it('is, imported as ESM, a plugin named skillopt that injects tools and shell, and its tools run the bin beside it', () => {
    const script = `
      const plugin = await import(${JSON.stringify(path.join(packageRoot, 'dist', 'index.js'))});
      const registered = [];
      const commandLines = [];
      const result = { exitCode: 0, timedOut: false, stdout: { text: '', truncated: false }, stderr: { text: '', truncated: false } };
      const ctx = {
        tools: { register: (definition) => registered.push(definition) },
        shell: { resolve: (request) => request, run: async (spec) => { commandLines.push(spec.command); return result; } },
      };
      plugin.apply(ctx, plugin.Config({}));
      await registered[0].execute({}, {});
      console.log(JSON.stringify({ exports: Object.keys(plugin).sort(), name: plugin.name, inject: plugin.inject, tools: registered.map((tool) => tool.name), commandLines }));
    `;
    const loaded = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
    expect(loaded).toEqual({
      exports: ['Config', 'apply', 'inject', 'name'],
      name: 'skillopt',
      inject: ['tools', 'shell'],
      tools: TOOLS,
      commandLines: [`'node' '${sleepBin}' 'status' '--json'`],
    });
  });

  it('is, required as CommonJS, the same plugin for a Cordis context', async () => {
    const plugin = require(path.join(packageRoot, 'dist', 'index.cjs'));
    const shell = new ShellStandIn({
      workdir: packageRoot,
      home: packageRoot,
      answer: { exitCode: 0, timedOut: false, stdout: { text: '', truncated: false }, stderr: { text: '', truncated: false } },
    });
    const { tools } = await loadPlugin(shell, { timeoutMs: 5000 }, plugin);
    expect(tools.registered.map((tool) => tool.name)).toEqual(TOOLS);
    await tools.call('skillopt_unschedule', { systemd: true });
    expect(shell.commandLines).toEqual([`'node' '${sleepBin}' 'unschedule' '--systemd' '--json'`]);
    expect(shell.requests[0]?.timeoutMs).toBe(5000);
  });
});
