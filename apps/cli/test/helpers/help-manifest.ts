import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface ManifestCommand {
  summary?: string;
  description?: string;
  examples?: unknown[];
  flags: Record<string, unknown>;
}

/**
 * The commands as --help shows them, read from the built oclif manifest (in-process help goes
 * through console.log, which Jest's workers buffer).
 */
export function manifestCommands(): Record<string, ManifestCommand> {
  const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', 'oclif.manifest.json'), 'utf8')) as {
    commands: Record<string, ManifestCommand>;
  };
  return manifest.commands;
}

/** The command has a summary, a description and examples for --help, and these flags. */
export function expectHelp(commandId: string, flags: readonly string[]): void {
  const command = manifestCommands()[commandId];
  expect(command?.summary?.length).toBeGreaterThan(10);
  expect(command?.description?.length).toBeGreaterThan(40);
  expect(command?.examples?.length).toBeGreaterThan(0);
  for (const flag of flags) expect(Object.keys(command?.flags ?? {})).toContain(flag);
}
