import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createBubblewrapSandbox, type Sandbox } from '../src/index';
import { createSandboxCase, PYTHON, type SandboxCase } from './sandbox-fixtures';

let sandbox: Sandbox;
let sandboxCase: SandboxCase;

beforeAll(async () => {
  sandbox = await createBubblewrapSandbox();
});
beforeEach(() => {
  sandboxCase = createSandboxCase();
});
afterEach(() => sandboxCase.remove());

async function python(script: string, options: { network?: 'none' | 'shared'; readOnlyPaths?: string[] } = {}) {
  return sandbox.run({ command: PYTHON, args: ['-c', script], workDirectory: sandboxCase.workDirectory, ...options });
}

describe('the bubblewrap sandbox: what a run can see and reach', () => {
  it('does not show a file beside the work directory, nor /root or /home, and shows only what python needs of /etc', async () => {
    const result = await python(
      [
        'import json, os',
        `answer = ${JSON.stringify(sandboxCase.answerPath)}`,
        'try:',
        '    open(answer).read(); readable = True',
        'except OSError:',
        '    readable = False',
        `print(json.dumps({"exists": os.path.exists(answer), "readable": readable, "parent": sorted(os.listdir("..")), "work": sorted(os.listdir(".")),`,
        '  "root": sorted(os.listdir("/")), "etc": sorted(os.listdir("/etc"))}))',
      ].join('\n'),
    );
    expect(result.exitCode).toBe(0);
    const seen = JSON.parse(result.stdout) as { exists: boolean; readable: boolean; parent: string[]; work: string[]; root: string[]; etc: string[] };
    expect(seen).toMatchObject({ exists: false, readable: false, parent: ['work'], work: ['input.xlsx'], etc: ['alternatives', 'ld.so.cache'] });
    expect(seen.root).not.toContain('root');
    expect(seen.root).not.toContain('home');
    expect(seen.root).not.toContain('work');
  });

  describe('with the network', () => {
    let server: Server;
    let port: number;
    let connections: number;
    beforeEach(async () => {
      connections = 0;
      server = createServer((socket) => {
        connections += 1;
        socket.end('hello');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as { port: number }).port;
    });
    afterEach(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    // A UDP connect() sends no packet: it only asks the kernel for a route, so nothing leaves the
    // machine even where a route exists. 198.51.100.1 is a documentation address (TEST-NET-2).
    const probe = (port: number) =>
      [
        'import json, socket',
        'outcome = {}',
        'try:',
        `    socket.create_connection(("127.0.0.1", ${port}), timeout=5).recv(5); outcome["loopback"] = "connected"`,
        'except OSError as error:',
        '    outcome["loopback"] = type(error).__name__',
        'try:',
        '    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); udp.connect(("198.51.100.1", 9)); outcome["outside"] = "routed"',
        'except OSError as error:',
        '    outcome["outside"] = error.strerror',
        'print(json.dumps(outcome))',
      ].join('\n');

    it("'none' reaches neither a server on the host's loopback nor any outside address", async () => {
      const result = await python(probe(port));
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ loopback: 'ConnectionRefusedError', outside: 'Network is unreachable' });
      expect(connections).toBe(0);
    });

    it("'shared' reaches the host's loopback (for agent CLIs and their model server)", async () => {
      const result = await python(probe(port), { network: 'shared' });
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ loopback: 'connected' });
      expect(connections).toBe(1);
    });
  });

  it('writes land in the work directory on the host, and nowhere else: /usr, /etc, / and the parent fail, /tmp is private', async () => {
    const hostTemporaryName = `sandbox-private-tmp-${process.pid}-${Date.now()}`;
    const targets = ['/usr/sandbox-escape', '/etc/sandbox-escape', '/sandbox-escape', path.join(sandboxCase.root, 'escape'), sandboxCase.answerPath];
    const result = await python(
      [
        'import json',
        `targets = ${JSON.stringify(targets)}`,
        'outcome = {}',
        'for target in targets:',
        '    try:',
        '        open(target, "w").write("escaped"); outcome[target] = "written"',
        '    except OSError as error:',
        '        outcome[target] = error.strerror',
        `open("/tmp/${hostTemporaryName}", "w").write("private")`,
        `outcome["tmp"] = open("/tmp/${hostTemporaryName}").read()`,
        'open("result.txt", "w").write("the answer")',
        'print(json.dumps(outcome))',
      ].join('\n'),
    );
    expect(result.exitCode).toBe(0);
    const outcome = JSON.parse(result.stdout) as Record<string, string>;
    expect(outcome).toEqual({
      '/usr/sandbox-escape': 'Read-only file system',
      '/etc/sandbox-escape': 'Read-only file system',
      '/sandbox-escape': 'Read-only file system',
      // The folders bubblewrap made for the mount point belong to root (on a read-only root besides).
      [path.join(sandboxCase.root, 'escape')]: 'Permission denied',
      [sandboxCase.answerPath]: 'Permission denied',
      tmp: 'private',
    });
    for (const target of ['/usr/sandbox-escape', '/etc/sandbox-escape', '/sandbox-escape', path.join(sandboxCase.root, 'escape')])
      expect(existsSync(target)).toBe(false);
    expect(existsSync(path.join(tmpdir(), hostTemporaryName))).toBe(false);
    expect(existsSync(path.join('/tmp', hostTemporaryName))).toBe(false);
    expect(readFileSync(sandboxCase.answerPath, 'utf8')).toBe('the gold workbook');
    expect(readFileSync(path.join(sandboxCase.workDirectory, 'result.txt'), 'utf8')).toBe('the answer');
  });

  it('binds read-only paths, even under a directory only root may enter (an interpreter under /root)', async () => {
    const privateDirectory = path.join(sandboxCase.root, 'private');
    const scripts = path.join(privateDirectory, 'scripts');
    mkdirSync(scripts, { recursive: true });
    chmodSync(privateDirectory, 0o700);
    writeFileSync(
      path.join(scripts, 'solve.py'),
      'open("solved.txt", "w").write("solved")\ntry:\n    open(__file__, "a").write("#")\nexcept OSError as error:\n    print(error.strerror)\n',
    );
    // Writable by anyone on the host, so only the read-only mount stops the run.
    chmodSync(path.join(scripts, 'solve.py'), 0o666);
    const result = await sandbox.run({
      command: PYTHON,
      args: [path.join(scripts, 'solve.py')],
      workDirectory: sandboxCase.workDirectory,
      readOnlyPaths: [scripts],
    });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'Read-only file system\n' });
    expect(readFileSync(path.join(sandboxCase.workDirectory, 'solved.txt'), 'utf8')).toBe('solved');
  });

  it('binds read-write paths (an agent CLI’s state folder) writable and given to the run’s user, and streams stdout lines as they come', async () => {
    const state = path.join(sandboxCase.root, 'state');
    mkdirSync(state);
    writeFileSync(path.join(state, 'config.json'), '{}');
    const lines: string[] = [];
    const result = await sandbox.run({
      command: PYTHON,
      args: [
        '-c',
        `import json; open(${JSON.stringify(path.join(state, 'session.jsonl'))}, "w").write("kept"); print(json.dumps({"type": "one"})); print(json.dumps({"type": "two"}))`,
      ],
      workDirectory: sandboxCase.workDirectory,
      readWritePaths: [state],
      onStdoutLine: (line) => lines.push(line),
      terminationGraceMs: 1_000,
    });
    expect(result.exitCode).toBe(0);
    expect(lines).toEqual(['{"type": "one"}', '{"type": "two"}']);
    expect(readFileSync(path.join(state, 'session.jsonl'), 'utf8')).toBe('kept');
    expect(statSync(path.join(state, 'config.json')).uid).toBe(65534);
    // The answer beside both stays out of sight.
    const peek = await python(`import os; print(os.path.exists(${JSON.stringify(sandboxCase.answerPath)}))`);
    expect(peek.stdout).toBe('False\n');
  });

  it('gives the run only the variables passed and the defaults, none of this process’s (an API key stays out)', async () => {
    const previous = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-must-not-leak';
    try {
      const result = await sandbox.run({
        command: '/usr/bin/env',
        workDirectory: sandboxCase.workDirectory,
        environment: { CASE_ID: '17', TMPDIR: '/tmp/own' },
      });
      expect(result.exitCode).toBe(0);
      const variables = Object.fromEntries(
        result.stdout
          .trim()
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
      expect(variables).toEqual({
        CASE_ID: '17',
        TMPDIR: '/tmp/own',
        HOME: sandboxCase.workDirectory,
        PATH: '/usr/local/bin:/usr/bin:/bin',
        LANG: 'C.UTF-8',
        // bubblewrap sets it with the working directory.
        PWD: sandboxCase.workDirectory,
      });
    } finally {
      if (previous === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = previous;
    }
  });

  it('runs as uid 65534 when this process is root, with no capability, and the run’s files are that user’s on the host', async () => {
    expect(process.getuid?.()).toBe(0);
    const result = await python(
      'import os; print(os.getuid(), os.getgid(), os.getgroups()); print(open("/proc/self/status").read().split("CapEff:")[1].split()[0]); open("mine.txt", "w").write("x")',
    );
    expect(result.stdout).toBe('65534 65534 []\n0000000000000000\n');
    expect(statSync(path.join(sandboxCase.workDirectory, 'mine.txt')).uid).toBe(65534);
  });

  it('runs as the configured uid and gid', async () => {
    const ownSandbox = await createBubblewrapSandbox({ userId: 23_023, groupId: 23_024 });
    const user = await ownSandbox.run({ command: '/usr/bin/id', args: ['-u'], workDirectory: sandboxCase.workDirectory });
    const group = await ownSandbox.run({ command: '/usr/bin/id', args: ['-g'], workDirectory: sandboxCase.workDirectory });
    expect([user.stdout, group.stdout]).toEqual(['23023\n', '23024\n']);
    expect(statSync(sandboxCase.workDirectory)).toMatchObject({ uid: 23_023, gid: 23_024 });
    expect(ownSandbox.description).toContain('uid 23023');
  });
});
