import path from 'node:path';

// Tests import these instead of counting `../` from their own folder, so a test moved into a
// subfolder still finds its data, and every reader of a set is found by one search.

/** Transcripts of the real agent CLIs (cli-transcripts/SOURCE.md). */
export const CLI_TRANSCRIPTS = path.join(__dirname, 'cli-transcripts');

/** Fixtures of the original Python SkillOpt project (original-skillopt/SOURCE.md). */
export const ORIGINAL_SKILLOPT_FIXTURES = path.join(__dirname, 'original-skillopt');

/** Fifty real SpreadsheetBench tasks, CC BY-SA 4.0 (spreadsheetbench/SOURCE.md). */
export const SPREADSHEETBENCH_TASKS = path.join(__dirname, 'spreadsheetbench');
