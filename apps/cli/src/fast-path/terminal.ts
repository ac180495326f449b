/** What the fast path knows of the terminal it prints to. */
export interface TerminalFacts {
  stdoutIsTerminal: boolean;
  stderrIsTerminal: boolean;
  /** Columns of the terminal on stdout, when it is one. */
  stdoutColumns: number | undefined;
  platform: NodeJS.Platform;
}

export type HeaderStyle = 'bold' | 'plain';

/** The width oclif's help wraps to: OCLIF_COLUMNS, else the terminal's columns (at least 40), else 80. */
export function helpWidthOf(environment: NodeJS.ProcessEnv, terminal: TerminalFacts): number {
  const configured = Number.parseInt(environment.OCLIF_COLUMNS ?? '', 10);
  if (configured) return configured;
  if (!terminal.stdoutIsTerminal || terminal.stdoutColumns === undefined || terminal.stdoutColumns < 1) return 80;
  return Math.max(terminal.stdoutColumns, 40);
}

// TERM values supports-color 8 takes for colour, and those ansis 3 takes for none.
const COLOUR_TERMINAL = /^screen|^xterm|^vt100|^vt220|^rxvt|color|ansi|cygwin|linux/i;
const COLOUR_256_TERMINAL = /-256(color)?$/i;
const MONOCHROME_TERMINAL = /-mono|dumb/i;
const ANSIS_COLORTERM_VALUES = new Set(['24bit', 'truecolor', 'ansi256', 'ansi']);

/**
 * Whether oclif would print the help's section headers in bold: only when supports-color 8 sees
 * colour on both stdout and stderr and ansis 3 sees it on stdout. undefined where their rules
 * branch on what this does not reproduce (FORCE_COLOR, CI services, Windows): then oclif answers.
 * The arguments are never colour flags: the fast path answers only `--help`, `--version` or none.
 */
export function headerStyleOf(environment: NodeJS.ProcessEnv, terminal: TerminalFacts): HeaderStyle | undefined {
  if ('FORCE_COLOR' in environment) return undefined;
  if (!terminal.stdoutIsTerminal || !terminal.stderrIsTerminal) return 'plain';
  if (environment.NO_COLOR) return 'plain';
  const term = environment.TERM ?? '';
  if (term === 'dumb') return 'plain';
  const names = Object.keys(environment);
  if (
    terminal.platform === 'win32' ||
    'CI' in environment ||
    'TEAMCITY_VERSION' in environment ||
    environment.TF_BUILD ||
    names.some((name) => name.startsWith('TEAMCI'))
  )
    return undefined;
  const supportsColour =
    environment.COLORTERM === 'truecolor' ||
    environment.TERM_PROGRAM === 'iTerm.app' ||
    environment.TERM_PROGRAM === 'Apple_Terminal' ||
    COLOUR_256_TERMINAL.test(term) ||
    COLOUR_TERMINAL.test(term) ||
    'COLORTERM' in environment;
  if (!supportsColour) return 'plain';
  if (!ANSIS_COLORTERM_VALUES.has(environment.COLORTERM ?? '') && MONOCHROME_TERMINAL.test(term)) return 'plain';
  return 'bold';
}
