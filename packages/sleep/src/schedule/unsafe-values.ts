import { ERROR_CODES, isSecretKey, redactSecretText, SkillOptError } from '@skillopt/contract';

/** One value a scheduled command carries, with the flag (or the thing) it came from, for the message. */
export type NamedValue = readonly [name: string, value: string];

// C0 and C1 controls: a newline would end the crontab line (and start a new job), the others have no place in a path or a flag.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

function refused(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message });
}

/** Refuses, before anything is written, any value with a control character: a scheduled command is one line of printable text. */
export function refuseControlCharacters(values: readonly NamedValue[]): void {
  for (const [name, value] of values) {
    const match = CONTROL_CHARACTER.exec(value);
    if (match === null) continue;
    const code = `U+${(match[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
    throw refused(`${name} holds a control character (${code}); a scheduled command must be one line of printable text. Nothing was scheduled.`);
  }
}

/**
 * Refuses a value that is, or names, a secret: a `--set` whose key names a credential
 * (`backends.openai.api_key`) or any value shaped like one (`sk-…`, `token=…`). A crontab and a
 * unit file are read by more than their owner's eyes (backups, `crontab -l` pasted into an issue),
 * so keys go to the environment file, which only its owner may read.
 */
export function refuseSecrets(values: readonly NamedValue[], environmentFile: string): void {
  for (const [name, value] of values) {
    const separator = value.indexOf('=');
    const key = name === '--set' && separator > 0 ? value.slice(0, separator) : undefined;
    if ((key === undefined || !isSecretKey(key)) && redactSecretText(value) === value) continue;
    const shown = key === undefined ? name : `${name} ${key}=…`;
    throw refused(
      `${shown} looks like a secret, and a schedule never writes one into your crontab or unit files. Put it in ${environmentFile} instead, as a NAME=value line (e.g. OPENAI_API_KEY=…), with chmod 600: the scheduled night reads that file when it starts. Nothing was scheduled.`,
    );
  }
}
