import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Environment, RolloutResult } from '@skillopt/contract';
import { createScriptedChatModel, createWorkDirectoryRolloutContextsForTests } from '@skillopt/env-kit/testing';
import { createSpreadsheetBenchEnvironment, type SpreadsheetTaskItem } from '../src/index';
import { SPREADSHEETBENCH_TASKS } from '../../../testdata/paths';
import { executionFailureReasons, realTasksConfig } from './helpers';

// CF_4909 is a formatting-only task: its input already holds the answer values, so a script that
// saves the input unchanged passes all three cases. Every attack below must score nothing instead.
const TASK = 'CF_4909';
const SAVE_INPUT = 'import shutil\nshutil.copyfile(INPUT_PATH, OUTPUT_PATH)';

let environment: Environment;
let shortTimeLimit: Environment;
let item: SpreadsheetTaskItem;
let server: Server;
let port: number;
let serverConnections = 0;
const hostFolder = mkdtempSync(path.join(tmpdir(), 'spreadsheetbench-host-'));
const contexts = createWorkDirectoryRolloutContextsForTests();

beforeAll(async () => {
  // World-writable, so only the sandbox (not file permissions) keeps a script out of it.
  chmodSync(hostFolder, 0o777);
  server = createServer((socket) => {
    serverConnections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
  environment = createSpreadsheetBenchEnvironment(realTasksConfig({ test: [TASK] }, { mode: 'single', case_timeout: 60, sandbox_max_processes: 32 }));
  item = ((await environment.loadSplit('test')) as SpreadsheetTaskItem[])[0] as SpreadsheetTaskItem;
  shortTimeLimit = createSpreadsheetBenchEnvironment(realTasksConfig({ test: [TASK] }, { mode: 'single', case_timeout: 2 }));
  await shortTimeLimit.setup?.();
});

afterAll(async () => {
  await environment.teardown?.();
  await shortTimeLimit.teardown?.();
  await contexts.removeAll();
  await new Promise((resolve) => server.close(resolve));
  rmSync(hostFolder, { recursive: true, force: true });
});

function rollOut(code: string, on: Environment = environment): Promise<RolloutResult> {
  const model = createScriptedChatModel({ reply: [`\`\`\`python\n${code}\n\`\`\``] });
  return on.rollout(item, contexts.contextFor({ skill: '# Skill', target: { kind: 'chat', model }, itemId: item.id }));
}

describe('generated code in the sandbox', () => {
  it('scores a harmless script normally: the sandbox runs it on every case', async () => {
    const result = await rollOut(SAVE_INPUT);
    expect(result).toMatchObject({ status: 'scored', hard: 1, soft: 1, details: { sandbox: 'bubblewrap', casesPassed: 3 } });
  });

  it('lets a script use pandas, with one BLAS thread', async () => {
    const result = await rollOut(
      `import os, pandas\nassert os.environ["OPENBLAS_NUM_THREADS"] == "1"\npandas.read_excel(INPUT_PATH, sheet_name=None)\n${SAVE_INPUT}`,
    );
    expect(result).toMatchObject({ hard: 1, soft: 1 });
  });

  it('cannot read the answer workbook: not beside the input, not at its real path, not anywhere', async () => {
    const answer = path.join(SPREADSHEETBENCH_TASKS, 'spreadsheet', TASK, `1_${TASK}_answer.xlsx`);
    for (const code of [
      "import shutil\nshutil.copyfile(INPUT_PATH.replace('input', 'answer'), OUTPUT_PATH)",
      `import shutil\nshutil.copyfile(${JSON.stringify(answer)}, OUTPUT_PATH)`,
      [
        'import os, shutil',
        '# Everything but the system folders, which the sandbox mounts read-only from the host.',
        'tops = [os.path.join("/", top) for top in os.listdir("/") if top not in ("proc", "sys", "dev", "usr")]',
        'found = [os.path.join(root, name) for top in tops for root, _, names in os.walk(top) for name in names if name.endswith(("_answer.xlsx", "_golden.xlsx", "golden.xlsx"))]',
        'if not found:',
        '    raise SystemExit("no answer workbook anywhere")',
        'shutil.copyfile(found[0], OUTPUT_PATH)',
      ].join('\n'),
    ]) {
      const reasons = executionFailureReasons(await rollOut(code));
      expect(reasons[0]).toMatch(/FileNotFoundError|no answer workbook anywhere/);
    }
  });

  it('has no network: a connection to a loopback server fails and the server sees nothing', async () => {
    const reasons = executionFailureReasons(
      await rollOut(`import socket, shutil\nsocket.create_connection(("127.0.0.1", ${port}), timeout=2)\nshutil.copyfile(INPUT_PATH, OUTPUT_PATH)`),
    );
    expect(reasons[0]).toMatch(/OSError|Network is unreachable|Connection refused/);
    expect(serverConnections).toBe(0);
  });

  it('cannot write outside its own folder; the host folder stays empty', async () => {
    const escaped = path.join(hostFolder, 'escaped.txt');
    const reasons = executionFailureReasons(
      await rollOut(`import shutil\nopen(${JSON.stringify(escaped)}, "w").write("out")\nshutil.copyfile(INPUT_PATH, OUTPUT_PATH)`),
    );
    expect(reasons[0]).toMatch(/FileNotFoundError|PermissionError|Read-only file system/);
    expect(existsSync(escaped)).toBe(false);
    executionFailureReasons(await rollOut('import shutil\nopen("/usr/escaped.txt", "w").write("out")\nshutil.copyfile(INPUT_PATH, OUTPUT_PATH)'));
    expect(existsSync('/usr/escaped.txt')).toBe(false);
  });

  it('survives a fork bomb, and the host keeps spawning processes meanwhile', async () => {
    const bomb = rollOut('import os\nwhile True:\n    os.fork()', shortTimeLimit);
    const hostRuns = Array.from(
      { length: 5 },
      () =>
        new Promise<number | null>((resolve) => {
          const child = spawn('/bin/true');
          child.on('exit', resolve);
          child.on('error', () => resolve(-1));
        }),
    );
    expect(await Promise.all(hostRuns)).toEqual([0, 0, 0, 0, 0]);
    executionFailureReasons(await bomb);
  });

  it('kills a script that loops forever at the case time limit', async () => {
    const reasons = executionFailureReasons(await rollOut('while True:\n    pass', shortTimeLimit));
    for (const reason of reasons) expect(reason).toMatch(/stopped after 2 s/);
  });

  it('sees no credentials in its environment', async () => {
    process.env.OPENAI_API_KEY = 'sk-test-secret-value';
    try {
      const reasons = executionFailureReasons(
        await rollOut('import os\nraise SystemExit("variables: " + ",".join(sorted(os.environ)) + (" LEAK" if "sk-test" in str(os.environ) else ""))'),
      );
      expect(reasons[0]).toMatch(/variables: /);
      expect(reasons[0]).not.toMatch(/OPENAI_API_KEY|LEAK/);
    } finally {
      delete process.env.OPENAI_API_KEY;
    }
  });

  it('goes on after all of that: the harmless script still passes', async () => {
    expect(await rollOut(SAVE_INPUT)).toMatchObject({ hard: 1, soft: 1 });
  });
});
