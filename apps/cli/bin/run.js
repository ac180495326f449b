#!/usr/bin/env node
import { isatty } from 'node:tty';
import { fileURLToPath } from 'node:url';
import { answerWithoutOclif } from '../dist/fast-path.js';

// `--version` and root `--help` are answered from the manifest; everything else is oclif's.
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
  const { execute } = await import('@oclif/core');
  await execute({ dir: import.meta.url });
}
