import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TaskItem } from '@skillopt/contract';
import { runProcess, type ProcessResult } from '@skillopt/runtime-kit';
import type { LocatedAgentCli } from './agent-cli-cache';
import { startDenyProxy, type DenyProxy } from './deny-proxy';
import { startLoopbackModel, type LoopbackModel, type ModelExchange } from './loopback-model';
import { answerTagOf, answerTextOf, toolResultsOf } from './model-answer';

/** The trivial task every smoke test asks: one item of the demo's kind, known to the simulator. */
export const SMOKE_ITEM: TaskItem = { id: 'smoke-spider', taskType: 'number', question: 'How many legs does a spider have?', references: ['8'] };
/** The task is in the workspace's `task.md`, as an env's agent rollout writes it: the simulator reads it with the CLI's own tool. */
export const SMOKE_PROMPT = 'Read `task.md` in your working directory and answer the question in it. Give your final answer inside <answer></answer> tags.';
/** The simulator's target model id. */
export const TARGET_MODEL = 'sim-target';
/**
 * A key the loopback model accepts. Long and odd on purpose: Copilot masks the value of its API
 * key wherever it appears in its output, so a short key such as "sim" would garble the model id.
 */
export const LOOPBACK_API_KEY = 'loopback-smoke-key-5c1e';
/** The CLI's own wall-clock limit; past it its whole process group is killed. */
const CLI_TIMEOUT_MS = 150_000;

export interface SmokeSession {
  model: LoopbackModel;
  proxy: DenyProxy;
  /** The CLI's isolated home (HOME, and the CLI's own state variable under it). */
  home: string;
  /** The working directory, holding `task.md` with the question. */
  workspace: string;
  /** Runs the CLI in the workspace with an environment built from scratch: `variables`, its offline settings, the deny proxy, a minimal PATH. */
  run(args: readonly string[], variables: Readonly<Record<string, string>>, stdin?: string): Promise<ProcessResult>;
}

/** A loopback model, a deny proxy and an isolated home for one CLI run; all removed after `body`. */
/** Node for the CLIs that are Node scripts, and the system's tools for their shells; nothing else of the test's PATH. */
export const SMOKE_SEARCH_PATH = [path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':');

export async function withSmokeSession(cli: LocatedAgentCli, body: (session: SmokeSession) => Promise<void>): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), `agent-cli-${cli.id}-`));
  const home = path.join(root, 'home');
  const workspace = path.join(root, 'workspace');
  mkdirSync(home);
  mkdirSync(workspace);
  writeFileSync(path.join(workspace, 'task.md'), `${SMOKE_ITEM.question}\n`);
  const model = await startLoopbackModel([SMOKE_ITEM]);
  const proxy = await startDenyProxy();
  const run = (args: readonly string[], variables: Readonly<Record<string, string>>, stdin?: string): Promise<ProcessResult> =>
    runProcess({
      command: cli.binary,
      args,
      ...(stdin === undefined ? {} : { stdin }),
      cwd: workspace,
      allowedEnvironmentVariables: [],
      extraEnvironmentVariables: {
        PATH: SMOKE_SEARCH_PATH,
        HOME: home,
        LANG: 'C.UTF-8',
        TERM: 'dumb',
        HTTP_PROXY: proxy.url,
        HTTPS_PROXY: proxy.url,
        http_proxy: proxy.url,
        https_proxy: proxy.url,
        NO_PROXY: '127.0.0.1,localhost',
        no_proxy: '127.0.0.1,localhost',
        ...cli.offlineEnvironment,
        ...variables,
      },
      timeoutMs: CLI_TIMEOUT_MS,
      provider: cli.id,
    });
  try {
    await body({ model, proxy, home, workspace, run });
  } finally {
    await model.close();
    await proxy.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** Exit 0 within the time limit; on failure the message shows the end of the CLI's stderr. */
export function expectCleanExit(result: ProcessResult): void {
  const outcome = { exitCode: result.exitCode, timedOut: result.timedOut };
  if (outcome.exitCode !== 0 || outcome.timedOut)
    throw new Error(`the CLI ended with ${JSON.stringify(outcome)}; stderr ends:\n${result.stderr.slice(-3000)}\nstdout ends:\n${result.stdout.slice(-1500)}`);
  expect(outcome).toEqual({ exitCode: 0, timedOut: false });
}

/** The answered requests (200) to a model route that carry the smoke prompt. */
export function answeredTaskRequests(model: LoopbackModel, route: string): ModelExchange[] {
  return model.exchanges.filter(
    (exchange) =>
      exchange.method === 'POST' && exchange.path.endsWith(route) && exchange.status === 200 && JSON.stringify(exchange.body).includes('Read `task.md`'),
  );
}

/**
 * The CLI answered from the simulator after one tool round trip at least: a request of its run
 * brought back a tool result holding the question of task.md, every request asked for the
 * simulator's target model, and the last one's `<answer>` is the one the CLI printed
 * (`printedAnswer`: its final text as its machine-readable output gives it).
 */
export function expectAnsweredThroughTools(model: LoopbackModel, route: string, printedAnswer: string | undefined): void {
  const requests = answeredTaskRequests(model, route);
  expect(requests.length).toBeGreaterThanOrEqual(2);
  expect(requests.map((request) => (request.body as { model?: unknown }).model)).toEqual(requests.map(() => TARGET_MODEL));
  expect(requests.flatMap(toolResultsOf).some((result) => result.includes(SMOKE_ITEM.question!))).toBe(true);
  const answer = answerTagOf(answerTextOf(requests[requests.length - 1]!));
  expect(answer).toMatch(/^<answer>.+<\/answer>$/);
  expect(answerTagOf(printedAnswer ?? '')).toBe(answer);
}

/** Each line of a JSON-lines output, parsed; lines that are not JSON are left out. */
export function jsonLines(output: string): Array<Record<string, unknown>> {
  return output.split('\n').flatMap((line) => {
    try {
      const value: unknown = JSON.parse(line);
      return typeof value === 'object' && value !== null ? [value as Record<string, unknown>] : [];
    } catch {
      return [];
    }
  });
}
