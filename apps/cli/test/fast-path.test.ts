import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { format } from 'node:util';
import { Config, Help } from '@oclif/core';
import { answerWithoutOclif, type FastPathRequest } from '../src/fast-path';
import { readCliDescription } from '../src/fast-path/cli-description';
import { formatRootHelp } from '../src/fast-path/root-help';
import { userAgentOf } from '../src/fast-path/user-agent';

const cliRoot = path.resolve(__dirname, '..');
const bin = path.join(cliRoot, 'bin', 'run.js');
let scratch: string;
let probe: string;

interface BinResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Whether the process loaded any module of @oclif (told by a --require probe at exit). */
  oclifLoaded: boolean;
  /** Whether it loaded semver, which only oclif's check of the Node version needs. */
  semverLoaded: boolean;
}

/**
 * Runs bin/run.js as a user would, in an environment that pins what help depends on: no colour
 * setting, no debugging, no user theme (an empty config directory), stdout and stderr pipes.
 */
function runBin(args: string[], environment: Record<string, string> = {}): Promise<BinResult> {
  const probeOutput = path.join(mkdtempSync(path.join(scratch, 'probe-')), 'loaded');
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['FORCE_COLOR', 'NO_COLOR', 'OCLIF_COLUMNS', 'DEBUG', 'SKILLOPT_DEBUG', 'SKILLOPT_NO_FAST_PATH', 'CI']) delete env[name];
  Object.assign(env, { NODE_OPTIONS: '', SKILLOPT_CONFIG_DIR: path.join(scratch, 'config'), PROBE_OUTPUT: probeOutput }, environment);
  return new Promise((resolve) => {
    execFile(process.execPath, ['--require', probe, bin, ...args], { cwd: scratch, env }, (error, stdout, stderr) => {
      const exitCode = error ? Number(error.code ?? 1) : 0;
      const loaded = JSON.parse(readFileSync(probeOutput, 'utf8')) as { oclif: boolean; semver: boolean };
      resolve({ stdout, stderr, exitCode, oclifLoaded: loaded.oclif, semverLoaded: loaded.semver });
    });
  });
}

const oclifAnswers = (args: string[], environment: Record<string, string> = {}) => runBin(args, { ...environment, SKILLOPT_NO_FAST_PATH: '1' });

function request(argv: string[], overrides: Partial<FastPathRequest> = {}): FastPathRequest & { written: string[] } {
  const written: string[] = [];
  return {
    argv,
    cliRoot,
    environment: { SKILLOPT_CONFIG_DIR: path.join(scratch, 'config') },
    terminal: { stdoutIsTerminal: false, stderrIsTerminal: false, stdoutColumns: undefined, platform: process.platform },
    write: (text) => written.push(text),
    ...overrides,
    written,
  };
}

type Manifest = { version: string; commands: Record<string, Record<string, unknown>> };

/** A copy of the CLI's package.json and manifest as `edit` leaves them; no manifest when it returns false. */
function copyOfCli(edit: (packageJson: { oclif: Record<string, unknown> } & Record<string, unknown>, manifest: Manifest) => boolean): string {
  const root = mkdtempSync(path.join(scratch, 'cli-'));
  const packageJson = JSON.parse(readFileSync(path.join(cliRoot, 'package.json'), 'utf8'));
  const manifest = JSON.parse(readFileSync(path.join(cliRoot, 'oclif.manifest.json'), 'utf8'));
  if (edit(packageJson, manifest)) writeFileSync(path.join(root, 'oclif.manifest.json'), JSON.stringify(manifest));
  writeFileSync(path.join(root, 'package.json'), JSON.stringify(packageJson));
  return root;
}

/** Root help as oclif prints it in process for the CLI in `root`, without styles (Jest may force colour on in its workers). */
async function oclifRootHelp(root: string, width: number): Promise<string> {
  const config = await Config.load(root);
  const { log } = console;
  let printed = '';
  console.log = (...values: unknown[]) => {
    printed += `${format(...values)}\n`;
  };
  try {
    await new Help(config, { maxWidth: width }).showHelp([]);
  } finally {
    console.log = log;
  }
  return printed.replace(/\u001b\[\d+m/g, '');
}

beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'skillopt-fast-path-'));
  probe = path.join(scratch, 'probe.cjs');
  writeFileSync(
    probe,
    [
      "process.on('exit', () => {",
      '  const files = Object.keys(require.cache);',
      "  const loaded = { oclif: files.some((file) => file.includes('@oclif')), semver: files.some((file) => file.includes('/semver/')) };",
      "  require('node:fs').writeFileSync(process.env.PROBE_OUTPUT, JSON.stringify(loaded));",
      '});',
      '',
    ].join('\n'),
  );
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the fast path of bin/run.js', () => {
  it.each([[['--version']], [['--help']], [['-h']], [[]]])('prints what oclif prints for %j, without loading oclif', async (args) => {
    const [fast, oclif] = await Promise.all([runBin(args), oclifAnswers(args)]);
    expect(fast.oclifLoaded).toBe(false);
    expect(oclif.oclifLoaded).toBe(true);
    expect(fast.stdout.length).toBeGreaterThan(0);
    expect(fast).toEqual({ ...oclif, oclifLoaded: false });
  });

  it('wraps root help to OCLIF_COLUMNS as oclif does, down to a list too narrow for names and descriptions side by side', async () => {
    for (const columns of ['20', '57']) {
      const [fast, oclif] = await Promise.all([runBin(['--help'], { OCLIF_COLUMNS: columns }), oclifAnswers(['--help'], { OCLIF_COLUMNS: columns })]);
      expect(fast.oclifLoaded).toBe(false);
      expect(fast.stdout).toBe(oclif.stdout);
    }
  });

  it('renders root help as oclif does at every width from 12 to 160 columns', async () => {
    const cli = readCliDescription(cliRoot)!;
    const userAgent = userAgentOf(cli.name, cli.version)!;
    expect(userAgent).toBe((await Config.load(cliRoot)).userAgent);
    for (let width = 12; width <= 160; width++)
      expect(formatRootHelp(cli, userAgent, { width, headerStyle: 'plain' })).toBe(await oclifRootHelp(cliRoot, width));
  });

  it('lists as oclif does the topics it adds for undeclared command prefixes, hidden topics and commands, and a command described but not summarised', async () => {
    const root = copyOfCli((packageJson, manifest) => {
      const topics = packageJson.oclif.topics as Record<string, Record<string, unknown>>;
      delete topics.runs;
      delete topics.sim;
      topics.env!.hidden = true;
      topics.config!.subtopics = { nested: { description: 'A nested topic.' } };
      manifest.commands.doctor!.hidden = true;
      // Added last, first by id: oclif describes the added `runs` topic by it.
      manifest.commands['runs:archive'] = { ...manifest.commands['runs:list'], id: 'runs:archive', summary: 'Archive old runs.' };
      manifest.commands.zap = { ...manifest.commands.eval, id: 'zap', summary: undefined, description: 'Zaps the cache.\nThe second line is not listed.' };
      return true;
    });
    const cli = readCliDescription(root)!;
    const userAgent = userAgentOf(cli.name, cli.version)!;
    for (const width of [30, 80, 120]) {
      const rendered = formatRootHelp(cli, userAgent, { width, headerStyle: 'plain' });
      expect(rendered).toBe(await oclifRootHelp(root, width));
      if (width === 120) expect(rendered).toMatch(/ {2}runs {4}Archive old runs\.\n {2}sim {5}Serve the SIMULATED model[\s\S]*zap +Zaps the cache\.\n\n$/);
    }
  });

  it('prints bold headers exactly as oclif does when colour is forced, by leaving FORCE_COLOR to oclif', async () => {
    const [fast, oclif] = await Promise.all([runBin(['--help'], { FORCE_COLOR: '1' }), oclifAnswers(['--help'], { FORCE_COLOR: '1' })]);
    expect(fast.oclifLoaded).toBe(true);
    expect(fast.stdout).toContain('\u001b[1mCOMMANDS\u001b[22m');
    expect(fast.stdout).toBe(oclif.stdout);
  });

  it('leaves unknown commands and flags to oclif, whose command_not_found hook names the nearest command and exits 2', async () => {
    const [misspelt, oclifMisspelt] = await Promise.all([runBin(['trian']), oclifAnswers(['trian'])]);
    expect(misspelt.oclifLoaded).toBe(true);
    expect(misspelt.exitCode).toBe(2);
    expect(misspelt.stderr).toContain('`trian` is not a skillopt command. Did you mean `skillopt train`?');
    expect(misspelt).toEqual(oclifMisspelt);
    const unknownFlag = await runBin(['-x']);
    expect(unknownFlag.oclifLoaded).toBe(true);
    expect(unknownFlag.exitCode).toBe(2);
    expect(unknownFlag.stderr).toContain('`-x` is not a skillopt command.');
  });

  it('leaves the help of a command to oclif: `skillopt train --help`, `train -h` and `help train` print the same', async () => {
    const [trainHelp, trainShortHelp, helpTrain] = await Promise.all([runBin(['train', '--help']), runBin(['train', '-h']), runBin(['help', 'train'])]);
    expect(trainHelp.oclifLoaded).toBe(true);
    // oclif's engine check is skipped on a Node the CLI supports: it could not warn there.
    expect(trainHelp.semverLoaded).toBe(false);
    expect(trainHelp.exitCode).toBe(0);
    expect(trainHelp.stdout).toMatch(/^Train a skill document[\s\S]*USAGE\n {2}\$ skillopt train[\s\S]*--resume/);
    expect(trainShortHelp).toEqual(trainHelp);
    expect(helpTrain).toEqual(trainHelp);
  });

  it.each([[['--version', 'extra']], [['--help', 'extra']], [['-h', 'extra']], [['runs']], [['runs', '--help']], [['--', '--help']], [['-v']], [['help']]])(
    'answers nothing for %j: only a bare --version, --help or -h',
    (argv) => {
      const call = request(argv);
      expect(answerWithoutOclif(call)).toBe(false);
      expect(call.written).toEqual([]);
    },
  );

  it('answers root --help and --version for the CLI as built (its texts are all the fast path renders)', () => {
    for (const argv of [['--help'], ['-h'], ['--version'], []]) {
      const call = request(argv);
      expect(answerWithoutOclif(call)).toBe(true);
      expect(call.written.join('')).toMatch(/^(The skillopt command|@skillopt\/cli\/)/);
    }
  });

  it('leaves the answer to oclif when asked to, when debugging, or under a user theme', () => {
    const config = path.join(scratch, 'themed');
    rmSync(config, { recursive: true, force: true });
    mkdirSync(config);
    writeFileSync(path.join(config, 'theme.json'), '{"sectionHeader":"red"}');
    for (const environment of [{ SKILLOPT_NO_FAST_PATH: '1' }, { DEBUG: '*' }, { SKILLOPT_DEBUG: '1' }, { SKILLOPT_CONFIG_DIR: config }]) {
      const call = request(['--help'], { environment });
      expect(answerWithoutOclif(call)).toBe(false);
      expect(call.written).toEqual([]);
    }
    expect(answerWithoutOclif(request(['--help'], { environment: { SKILLOPT_CONFIG_DIR: config, SKILLOPT_DISABLE_THEME: 'true' } }))).toBe(true);
  });

  it('leaves the answer to oclif when the manifest is missing, of another version, or holds what it does not render', () => {
    expect(answerWithoutOclif(request(['--help'], { cliRoot: copyOfCli(() => true) }))).toBe(true);
    const declined = [
      copyOfCli(() => false),
      copyOfCli((_, manifest) => {
        manifest.version = '0.0.1';
        return true;
      }),
      copyOfCli((packageJson) => {
        (packageJson.oclif as Record<string, unknown>).plugins = ['@oclif/plugin-not-found'];
        return true;
      }),
      // An init hook runs before help and may print.
      copyOfCli((packageJson) => {
        (packageJson.oclif.hooks as Record<string, unknown>).init = './dist/hooks/init.js';
        return true;
      }),
      copyOfCli((packageJson) => {
        packageJson.oclif.additionalHelpFlags = '-h';
        return true;
      }),
      // A help class other than the one shipped may print anything.
      copyOfCli((packageJson) => {
        packageJson.oclif.helpClass = './dist/help/another-help.js';
        return true;
      }),
      copyOfCli((_, manifest) => {
        manifest.commands.train!.aliases = ['fit'];
        return true;
      }),
      copyOfCli((_, manifest) => {
        manifest.commands.train!.summary = 'Train <%= config.bin %> 🚀';
        return true;
      }),
    ];
    for (const root of declined) {
      for (const argv of [['--help'], ['--version']]) {
        const call = request(argv, { cliRoot: root });
        expect(answerWithoutOclif(call)).toBe(false);
        expect(call.written).toEqual([]);
      }
    }
  });

  it('ships what it reads: package.json "files" holds bin, dist and oclif.manifest.json', () => {
    const { files } = JSON.parse(readFileSync(path.join(cliRoot, 'package.json'), 'utf8')) as { files: string[] };
    expect(files).toEqual(expect.arrayContaining(['bin', 'dist', 'oclif.manifest.json']));
  });
});
