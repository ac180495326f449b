import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { headerStyleOf, type TerminalFacts } from '../src/fast-path/terminal';
import { isPlainHelpText, wrapText } from '../src/fast-path/wrap-text';

// The libraries oclif's help wraps and colours with, from oclif's own dependencies.
const requireFromOclif = createRequire(require.resolve('@oclif/core/package.json'));
/**
 * For each environment, whether oclif 4 prints help headers in bold: asked of supports-color and
 * ansis themselves, in a child process (Jest's sandbox has a process.env of its own, which modules
 * loaded outside it do not see), each case with a fresh load since both read the environment then.
 */
function oclifPrintsBold(environments: NodeJS.ProcessEnv[], isTerminal: boolean): boolean[] {
  const script = `
    const requireFromOclif = require('node:module').createRequire(process.argv[1]);
    const cases = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
    process.argv = [process.execPath, 'skillopt', '--help'];
    Object.defineProperty(process.stdout, 'isTTY', { value: ${isTerminal}, configurable: true });
    const answers = cases.map((environment) => {
      process.env = environment;
      for (const name of ['supports-color', 'ansis']) delete requireFromOclif.cache[requireFromOclif.resolve(name)];
      const supportsColor = requireFromOclif('supports-color').supportsColor({ isTTY: ${isTerminal} });
      return Boolean(supportsColor) && requireFromOclif('ansis').bold('X') !== 'X';
    });
    require('node:fs').writeSync(1, JSON.stringify(answers));
  `;
  const child = spawnSync(process.execPath, ['-e', script, require.resolve('@oclif/core/package.json')], {
    input: JSON.stringify(environments),
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout) as boolean[];
}

const terminal = (isTerminal: boolean): TerminalFacts => ({
  stdoutIsTerminal: isTerminal,
  stderrIsTerminal: isTerminal,
  stdoutColumns: isTerminal ? 100 : undefined,
  platform: 'linux',
});

function* environments(): Generator<NodeJS.ProcessEnv> {
  const terms = [undefined, 'xterm-256color', 'xterm', 'screen', 'tmux-256color', 'rxvt-unicode', 'vt100', 'linux', 'dumb', 'xterm-mono', 'alacritty', 'foot'];
  for (const TERM of terms)
    for (const COLORTERM of [undefined, 'truecolor', '24bit', 'yes'])
      for (const NO_COLOR of [undefined, '1', ''])
        for (const TERM_PROGRAM of [undefined, 'iTerm.app', 'Apple_Terminal', 'vscode']) {
          const environment: NodeJS.ProcessEnv = { PATH: '/usr/bin' };
          for (const [name, value] of Object.entries({ TERM, COLORTERM, NO_COLOR, TERM_PROGRAM })) if (value !== undefined) environment[name] = value;
          yield environment;
        }
}

describe('help headers: bold or plain', () => {
  it.each([true, false])('decides as supports-color and ansis do (stdout and stderr terminals: %s)', (isTerminal) => {
    const cases = [...environments()];
    const bold = oclifPrintsBold(cases, isTerminal);
    const decided = cases.map((environment) => ({ environment, style: headerStyleOf(environment, terminal(isTerminal)) }));
    expect(decided).toEqual(cases.map((environment, index) => ({ environment, style: bold[index] ? 'bold' : 'plain' })));
    expect(bold.includes(true)).toBe(isTerminal);
  });

  it('leaves to oclif what depends on rules it does not reproduce: FORCE_COLOR, CI services, Windows', () => {
    const base = { TERM: 'xterm-256color' };
    expect(headerStyleOf({ ...base, FORCE_COLOR: '0' }, terminal(false))).toBeUndefined();
    expect(headerStyleOf({ ...base, CI: 'true' }, terminal(true))).toBeUndefined();
    expect(headerStyleOf({ ...base, TEAMCITY_VERSION: '2024.1' }, terminal(true))).toBeUndefined();
    expect(headerStyleOf({ ...base, TF_BUILD: 'True' }, terminal(true))).toBeUndefined();
    expect(headerStyleOf(base, { ...terminal(true), platform: 'win32' })).toBeUndefined();
    expect(headerStyleOf(base, { ...terminal(false), platform: 'win32' })).toBe('plain');
  });
});

describe('wrapText', () => {
  const wrapAnsi = requireFromOclif('wrap-ansi') as (text: string, columns: number, options: { hard: boolean }) => string;

  it('wraps as wrap-ansi does with hard breaks, for words short and long, runs of spaces and several lines', () => {
    // A deterministic generator of texts: words of 1 to 14 letters, sometimes two spaces or a line break between them.
    let seed = 7;
    const next = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % below;
    };
    const texts = [' leading and trailing ', 'a  b   c', 'supercalifragilistic', 'x\n\ny', '   ', ''];
    for (let text = 0; text < 200; text++) {
      let value = '';
      for (let word = next(12); word >= 0; word--) value += 'abcdefghijklmn'.slice(0, 1 + next(14)) + [' ', ' ', ' ', '  ', '\n', '—'][next(6)];
      texts.push(value);
    }
    for (const text of texts)
      for (let columns = 1; columns <= 24; columns++)
        expect([text, columns, wrapText(text, columns)]).toEqual([text, columns, wrapAnsi(text, columns, { hard: true })]);
  });

  it('takes as plain only text whose every character is one column wide and which holds no template', () => {
    expect(isPlainHelpText('Train a skill document — rollouts, “gated” updates…\nsecond line')).toBe(true);
    for (const text of ['tab\there', 'wide 漢字', 'emoji 🚀', 'combining e\u0301', '<%= config.bin %>', 'escape \u001b[1m'])
      expect(isPlainHelpText(text)).toBe(false);
  });
});
