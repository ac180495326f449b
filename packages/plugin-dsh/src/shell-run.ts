import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import type { ShellRequest, ShellRunResult, ShellService } from './host-services.js';

/**
 * Runs one command through the host's shell service and waits for its end: `execute` then the
 * execution's result where the service has it (DeepSeek Harness 0.1.7 and later), `run` where it
 * has that instead (earlier releases).
 */
export async function runThroughShell(shell: ShellService, request: ShellRequest): Promise<ShellRunResult> {
  const spec = shell.resolve(request);
  if (shell.execute !== undefined) return (await shell.execute(spec)).result();
  if (shell.run !== undefined) return shell.run(spec);
  throw new SkillOptError({
    code: ERROR_CODES.internal,
    category: 'internal',
    message: 'The host’s shell service has neither execute nor run: this plugin needs a DeepSeek Harness shell executor.',
  });
}
