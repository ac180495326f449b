import picocolors from 'picocolors';

/** The styles the CLI's output uses; every one is the identity when colour is off. */
export type Colours = ReturnType<typeof picocolors.createColors>;

/** Styles that add nothing: what tests and files get. */
export const NO_COLOURS: Colours = picocolors.createColors(false);

/**
 * Whether to colour what goes to a stream: never under NO_COLOR (any value but empty, no-color.org),
 * always under FORCE_COLOR (any value but 0 or false), else only on a terminal that is not `dumb`.
 * picocolors' own choice is not used: it colours a pipe too whenever CI is set, or on Windows.
 */
export function colourEnabled(environment: NodeJS.ProcessEnv, streamIsTerminal: boolean): boolean {
  if (environment.NO_COLOR !== undefined && environment.NO_COLOR !== '') return false;
  const forced = environment.FORCE_COLOR;
  if (forced !== undefined) return forced !== '0' && forced !== 'false';
  return streamIsTerminal && environment.TERM !== 'dumb';
}

/** The styles for what is written to `stream` (stdout, as a rule). */
export function coloursFor(stream: { isTTY?: boolean }, environment: NodeJS.ProcessEnv = process.env): Colours {
  return picocolors.createColors(colourEnabled(environment, stream.isTTY === true));
}
