import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

const REPOSITORY = path.resolve(__dirname, '..', '..', '..', '..');
const SKILLOPT_BIN = path.join(REPOSITORY, 'apps', 'cli', 'bin', 'run.js');

/** A `skillopt dashboard` this test started, and how to stop it. */
export interface RunningDashboard {
  url: string;
  stop(): Promise<number | null>;
}

/** Runs the built-in demo training to its end (the simulated model: no key, no network). */
export function trainDemo(outDirectory: string): void {
  const result = spawnSync(process.execPath, [SKILLOPT_BIN, 'demo', '--out', outDirectory], { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) throw new Error(`skillopt demo exited with ${result.status}: ${result.stderr}`);
}

/** Starts the demo training in the background, slowed by a simulated latency per call, so a page can watch it go. */
export function startDemo(outDirectory: string, latencyMs: number): ChildProcess {
  return spawn(process.execPath, [SKILLOPT_BIN, 'demo', '--out', outDirectory, '--set', `backends.sim.latency_ms=${latencyMs}`], { stdio: 'ignore' });
}

/** Starts `skillopt dashboard --runs <folder> --port 0 --json` and waits for the line that says where it listens. */
export function startDashboard(runsFolder: string): Promise<RunningDashboard> {
  const child = spawn(process.execPath, [SKILLOPT_BIN, 'dashboard', '--runs', runsFolder, '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`skillopt dashboard exited with ${code} before it listened: ${stderr || stdout}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      for (const line of stdout.split('\n')) {
        if (!line.startsWith('{')) continue;
        const started = JSON.parse(line) as { type?: string; url?: string };
        if (started.type === 'dashboard-started' && typeof started.url === 'string')
          resolve({
            url: started.url,
            async stop() {
              child.kill('SIGTERM');
              return exited;
            },
          });
      }
    });
  });
}
