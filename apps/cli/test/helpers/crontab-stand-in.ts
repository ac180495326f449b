import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A stand-in for crontab(1), so tests never touch the machine's crontab: a script named `crontab`
 * in `<directory>/bin` (put it first on PATH) that keeps the crontab in `<directory>/crontab.txt`.
 * `crontab -l` prints it, or says "no crontab for <user>" and exits 1 when there is none, as cron
 * does; `crontab -` and `crontab <file>` replace it.
 */
export function createCrontabStandIn(directory: string): { binDirectory: string; text(): string | undefined; set(text: string): void } {
  const binDirectory = path.join(directory, 'bin');
  mkdirSync(binDirectory, { recursive: true });
  const store = path.join(directory, 'crontab.txt');
  const script = `#!/bin/sh
case "$1" in
  -l) if [ -f '${store}' ]; then cat '${store}'; else echo "no crontab for tester" >&2; exit 1; fi ;;
  -) cat > '${store}' ;;
  *) cat "$1" > '${store}' ;;
esac
`;
  writeFileSync(path.join(binDirectory, 'crontab'), script);
  chmodSync(path.join(binDirectory, 'crontab'), 0o755);
  return {
    binDirectory,
    text: () => (existsSync(store) ? readFileSync(store, 'utf8') : undefined),
    set: (text) => writeFileSync(store, text),
  };
}
