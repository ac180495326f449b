import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A stand-in for crontab(1), so tests never touch the machine's crontab: a script named `crontab`
 * in a bin folder to put first on PATH, keeping the crontab in a file beside it. `crontab -l`
 * prints it (exit 1 and "no crontab for <user>" when there is none, as cron does), `crontab -` and
 * `crontab <file>` replace it; each call is logged.
 */
export interface CrontabStandIn {
  binDirectory: string;
  /** The crontab as the stand-in stores it; undefined before the first write. */
  text(): string | undefined;
  /** Sets the crontab as if the user had written it. */
  set(text: string): void;
  /** The arguments of every call, one string per call. */
  calls(): string[];
  /** Makes every later call fail as cron does for a user it refuses. */
  refuse(): void;
}

export function createCrontabStandIn(directory: string): CrontabStandIn {
  const binDirectory = path.join(directory, 'bin');
  mkdirSync(binDirectory, { recursive: true });
  const store = path.join(directory, 'crontab.txt');
  const callLog = path.join(directory, 'crontab-calls.txt');
  const refusal = path.join(directory, 'crontab-refuses');
  const script = `#!/bin/sh
echo "$*" >> '${callLog}'
if [ -f '${refusal}' ]; then echo "You are not allowed to use this program (crontab)" >&2; exit 1; fi
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
    calls: () => (existsSync(callLog) ? readFileSync(callLog, 'utf8').split('\n').filter(Boolean) : []),
    refuse: () => writeFileSync(refusal, ''),
  };
}

/** What cron hands to `sh -c` for a crontab line: the line without its five time fields, `\%` read as `%`. */
export function commandOfCronLine(line: string): string {
  const fields = /^(\S+\s+){5}(.*)$/.exec(line);
  if (fields === null) throw new Error(`not a crontab line: ${line}`);
  return (fields[2] as string).replaceAll('\\%', '%');
}
