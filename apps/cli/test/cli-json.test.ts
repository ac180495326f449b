import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { killStartedProcesses, startSkillopt } from './helpers/cli-process';
import { createFixtureProject, type FixtureProject } from './helpers/fixture-project';
import { readJsonLines } from './helpers/json-lines';

/** The two shapes of docs/cli-json.md, checked on the built CLI as a user's script runs it: a child process with stdout on a pipe. */

interface ErrorObject {
  code: string;
  category: string;
  message: string;
  exitCode: number;
  resumeCommand?: string;
}

let project: FixtureProject;

async function skillopt(args: string[]) {
  return startSkillopt(args, project.directory).ended;
}

/** One JSON value and nothing else on stdout: JSON.parse refuses any other byte but whitespace around it. */
function oneValue<Value>(stdout: string): Value {
  return JSON.parse(stdout) as Value;
}

beforeAll(async () => {
  project = createFixtureProject();
  writeFileSync(path.join(project.directory, 'skill.md'), '# Skill\n\nAnswer with the number only, inside <answer></answer>.\n');
  const trained = await skillopt(['train', '--config', 'train.yaml', '--out', 'run']);
  if (trained.code !== 0) throw new Error(`the training the inspection commands read failed: ${trained.stderr}`);
});
afterAll(() => project.remove());
afterEach(killStartedProcesses);

describe('JSON Lines: train --json', () => {
  it('prints the run events, then one result line with the summary, and nothing else', async () => {
    const { code, stdout } = await skillopt(['train', '--config', 'train.yaml', '--out', 'lines-run', '--json']);
    expect(code).toBe(0);
    const { events, final } = readJsonLines(stdout);
    expect(events[0]?.type).toBe('run-started');
    expect(events.at(-1)?.type).toBe('run-finished');
    expect(events.every((event) => typeof event.runId === 'string' && typeof event.timestamp === 'string')).toBe(true);
    expect(final).toMatchObject({ type: 'result', runDirectory: path.join(project.directory, 'lines-run'), environmentId: 'fixture' });
    expect(final).toHaveProperty('bestSkillPath');
  });

  it('ends a configuration error with one error line, exit 2', async () => {
    const { code, stdout, stderr } = await skillopt(['train', '--config', 'train.yaml', '--set', 'train.num_epoch=2', '--json']);
    expect(code).toBe(2);
    const { events, final } = readJsonLines(stdout);
    expect(events).toEqual([]);
    if (final.type !== 'error') throw new Error('expected an error line');
    expect(final.error).toMatchObject({ code: 'config-invalid', category: 'user', exitCode: 2 });
    expect(final.error.message).toContain('train.num_epochs');
    // The same words on stderr, for a person watching `--json > events.jsonl`.
    expect(stderr).toContain('train.num_epochs');
  });

  it('ends a run that stopped with the error line naming the command that resumes', async () => {
    const { code, stdout } = await skillopt(['train', '--config', 'train.yaml', '--out', 'spent-run', '--set', 'budget.optimizer.max_calls=1', '--json']);
    const { events, final } = readJsonLines(stdout);
    expect(events.find((event) => event.type === 'run-stopped')).toMatchObject({ reason: 'budget-spent' });
    if (final.type !== 'error') throw new Error('expected an error line');
    expect(final.error).toMatchObject({ code: 'budget-spent', exitCode: code, resumeCommand: 'skillopt train --resume spent-run' });
    expect(code).toBe(2);
  });

  it('reports a flag it does not know as an error line, exit 2', async () => {
    const { code, stdout } = await skillopt(['train', '--config', 'train.yaml', '--no-such-flag', '--json']);
    expect(code).toBe(2);
    expect(readJsonLines(stdout).final).toMatchObject({ type: 'error', error: { code: 'usage-invalid', exitCode: 2 } });
  });
});

describe('one JSON value: every other command under --json', () => {
  it.each([
    { command: 'eval', args: ['eval', '--config', 'train.yaml', '--skill', 'skill.md', '--split', 'val', '--json'], key: 'summary' },
    { command: 'runs list', args: ['runs', 'list', '--dir', '.', '--json'], key: '0' },
    { command: 'runs show', args: ['runs', 'show', 'run', '--json'], key: 'history' },
    { command: 'runs diff', args: ['runs', 'diff', 'run', '--combined', '--json'], key: 'changes' },
    { command: 'config print', args: ['config', 'print', '--config', 'train.yaml', '--json'], key: 'sources' },
  ])('$command prints one value and exits 0', async ({ args, key }) => {
    const { code, stdout } = await skillopt(args);
    expect(code).toBe(0);
    expect(oneValue<Record<string, unknown>>(stdout)).toHaveProperty([key]);
  });

  it('doctor prints its findings, and exits 1 exactly when they hold a problem', async () => {
    const { code, stdout } = await skillopt(['doctor', '--json']);
    const findings = oneValue<{ node: { ok: boolean }; credentials: Array<{ name: string; present: boolean }>; problems: string[] }>(stdout);
    expect(findings.node.ok).toBe(true);
    expect(findings.credentials.map((credential) => credential.name)).toContain('OPENAI_API_KEY');
    expect(code).toBe(findings.problems.length > 0 ? 1 : 0);
  });

  it('env new returns what it wrote', async () => {
    const directory = path.join(project.directory, 'env-trivia');
    const { code, stdout } = await skillopt(['env', 'new', 'trivia', '--directory', directory, '--json']);
    expect(code).toBe(0);
    const written = oneValue<{ packageName: string; environmentId: string; directory: string; files: string[]; nextSteps: string[] }>(stdout);
    expect(written).toMatchObject({ packageName: 'skillopt-env-trivia', environmentId: 'trivia', directory });
    expect(written.files).toContain('package.json');
    expect(written.files.every((file) => existsSync(path.join(directory, file)))).toBe(true);
    expect(written.nextSteps).toContain('npm test');
  });

  it.each([
    { command: 'eval', args: ['eval', '--config', 'train.yaml', '--skill', 'missing.md', '--json'], code: 'config-invalid' },
    { command: 'runs list', args: ['runs', 'list', '--dir', 'nowhere', '--json'], code: 'config-invalid' },
    { command: 'runs show', args: ['runs', 'show', 'nowhere', '--json'], code: 'data-invalid' },
    { command: 'runs diff', args: ['runs', 'diff', 'run', '--from', '999', '--json'], code: 'config-invalid' },
    { command: 'config print', args: ['config', 'print', '--config', 'nope.yaml', '--json'], code: 'config-invalid' },
    { command: 'doctor', args: ['doctor', '--config', 'nope.yaml', '--json'], code: 'config-invalid' },
    { command: 'env new', args: ['env', 'new', 'Bad Name', '--json'], code: 'usage-invalid' },
    { command: 'sim serve', args: ['sim', 'serve', '--config', 'train.yaml', '--noise', '2', '--json'], code: 'config-invalid' },
    { command: 'dashboard', args: ['dashboard', '--runs', 'nowhere', '--json'], code: 'config-invalid' },
    { command: 'runs list (an unknown flag)', args: ['runs', 'list', '--no-such-flag', '--json'], code: 'usage-invalid' },
  ])('$command prints its error as {"error": ...} on stdout and exits 2', async ({ args, code: errorCode }) => {
    const { code, stdout } = await skillopt(args);
    expect(code).toBe(2);
    const { error } = oneValue<{ error: ErrorObject }>(stdout);
    expect(error).toMatchObject({ code: errorCode, category: 'user', exitCode: 2 });
    expect(error.message.length).toBeGreaterThan(0);
  });
});

describe('secrets under --json', () => {
  const SECRET = 'sk-proj-PLANTEDjsonSecret0123456789';

  it.each([
    { shape: 'JSON Lines (train)', args: ['train', '--config', 'train.yaml', '--set', `train.num_epoch=${SECRET}`, '--json'] },
    { shape: 'one value (config print)', args: ['config', 'print', '--config', 'train.yaml', '--set', `train.num_epoch=${SECRET}`, '--json'] },
  ])('are cut out of the error a $shape command prints, on stdout and stderr', async ({ args }) => {
    const { code, stdout, stderr } = await skillopt(args);
    expect(code).toBe(2);
    expect(stdout).toContain('train.num_epochs');
    expect(stdout).toContain('[redacted]');
    for (const output of [stdout, stderr]) expect(output).not.toContain('PLANTEDjsonSecret');
  });
});

describe('sim serve --json, the one long-running command', () => {
  it('prints one line once listening, serves until SIGTERM, then exits 0 having printed nothing else', async () => {
    const serve = startSkillopt(['sim', 'serve', '--config', 'train.yaml', '--json'], project.directory);
    let ended = false;
    void serve.ended.then(() => (ended = true));
    while (!serve.stdoutSoFar().includes('\n') && !ended) await delay(20);
    const firstLine = serve.stdoutSoFar().split('\n')[0] ?? '';
    const ready = JSON.parse(firstLine) as { url: string; port: number; targetModel: string; optimizerModel: string; answerKeyItems: number };
    expect(ready).toMatchObject({ targetModel: 'sim-target', optimizerModel: 'sim-optimizer', answerKeyItems: 20 });
    const models = (await (await fetch(`${ready.url}/models`)).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((model) => model.id)).toEqual(['sim-target', 'sim-optimizer']);
    serve.signal('SIGTERM');
    const stopped = await serve.ended;
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toBe(`${firstLine}\n`);
  });
});

describe('error text on a pipe', () => {
  it('keeps a long SkillOptError message on one line of stderr, exit 2', async () => {
    const longPath = path.join(project.directory, 'a-folder-with-a-long-name-'.repeat(6), 'config.yaml');
    const { code, stdout, stderr } = await skillopt(['train', '--config', longPath]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const [first] = stderr.split('\n');
    expect(first).toMatch(/^Error: /);
    expect(first).toContain(longPath);
    expect(first!.length).toBeGreaterThan(longPath.length);
  });
});
