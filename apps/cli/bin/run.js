#!/usr/bin/env node
import { isatty } from 'node:tty';
import { fileURLToPath } from 'node:url';
import { answerWithoutOclif } from '../dist/fast-path.js';

// `--version` and root `--help` (or `-h`) are answered from the manifest; everything else is oclif's.
const answered = answerWithoutOclif({
  argv: process.argv.slice(2),
  cliRoot: fileURLToPath(new URL('..', import.meta.url)),
  environment: process.env,
  terminal: {
    stdoutIsTerminal: isatty(1),
    stderrIsTerminal: isatty(2),
    stdoutColumns: process.stdout.isTTY ? process.stdout.getWindowSize()[0] : undefined,
    platform: process.platform,
  },
  write: (text) => process.stdout.write(text),
});
if (!answered) {
  // Importing @oclif/core checks Node against oclif's engines (>= 18) with semver, a tenth of the
  // import's time. Ours (>= 20.19) are stricter, so on a Node we support that check cannot warn; it
  // is skipped for the import only, so no child process inherits the setting.
  const skipEngineCheck = process.env.OCLIF_DISABLE_ENGINE_WARNING === undefined && Number(process.versions.node.split('.')[0]) >= 20;
  if (skipEngineCheck) process.env.OCLIF_DISABLE_ENGINE_WARNING = '1';
  const { execute } = await import('@oclif/core');
  if (skipEngineCheck) delete process.env.OCLIF_DISABLE_ENGINE_WARNING;
  await execute({ dir: import.meta.url });
}
