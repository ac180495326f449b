/**
 * Something about a configuration that the run survives but the user should read: a retired key
 * that was dropped, a secret that was removed, a section no installed package validated. Warnings
 * are data rather than log lines so the CLI can print them and `--json` can carry them.
 */
export interface ConfigWarning {
  /** Stable and machine-readable, e.g. `retired-key`, `secret-dropped`, `section-not-validated`. */
  code: ConfigWarningCode;
  /** The dotted key the warning is about, when there is one. */
  path?: string;
  /** A complete sentence for the reader, naming the key. */
  message: string;
}

export type ConfigWarningCode =
  | 'retired-key'
  | 'secret-dropped'
  | 'section-not-validated'
  | 'unused-backend-key'
  | 'backend-alias-meaning'
  | 'backend-label-translated'
  | 'model-name-dropped'
  | 'value-translated';

export function configWarning(code: ConfigWarningCode, message: string, path?: string): ConfigWarning {
  return path === undefined ? { code, message } : { code, path, message };
}
