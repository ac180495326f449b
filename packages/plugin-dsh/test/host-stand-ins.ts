import { spawn } from 'node:child_process';
import { Context } from 'cordis';
import type { ShellRequest, ShellRunResult, ShellService, ToolDefinition, ToolsService } from '../src/host-services';
import * as sourcePlugin from '../src/index';

// The services as DeepSeek Harness declares them on its Cordis context.
declare module 'cordis' {
  interface Context {
    tools: ToolsService;
    shell: ShellService;
  }
}

/**
 * Stand-ins for DeepSeek Harness's `tools` and `shell` services, provided in a real Cordis context
 * the plugin is loaded into. The tools stand-in keeps each registration and calls a tool the way
 * the harness does (execute, then render); the shell stand-in records every command line and runs
 * it with `bash -c` in a working folder and HOME of the test's choosing, or answers with a given
 * result without running anything.
 */
export class ToolsStandIn {
  readonly registered: ToolDefinition[] = [];

  register(definition: ToolDefinition): () => void {
    this.registered.push(definition);
    return () => this.registered.splice(this.registered.indexOf(definition), 1);
  }

  tool(name: string): ToolDefinition {
    const found = this.registered.find((definition) => definition.name === name);
    if (found === undefined) throw new Error(`no tool ${name} is registered`);
    return found;
  }

  /** What the model would read back from a call, and the value a program calling the tool gets. */
  async call(name: string, argumentsGiven: unknown): Promise<{ value: unknown; text: string }> {
    const definition = this.tool(name);
    const value = await definition.execute(argumentsGiven, { signal: new AbortController().signal });
    const text = definition.output
      .render(argumentsGiven, value)
      .map((block) => block.text)
      .join('\n');
    return { value, text };
  }
}

export interface ShellStandInOptions {
  /** The working folder and HOME of every command it runs. */
  workdir: string;
  home: string;
  /** Answer with this result instead of running the command. */
  answer?: ShellRunResult;
  /** DeepSeek Harness 0.1.7's `execute` instead of the earlier `run`. */
  executeEra?: boolean;
}

interface ResolvedRequest extends ShellRequest {
  workdir: string;
  timeoutMs: number;
}

/** Runs `bash -c <command>` and ends it when the request's timeout passes, as DeepSeek Harness's local bash executor does. */
function runWithBash(spec: ResolvedRequest, home: string): Promise<ShellRunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', spec.command], { cwd: spec.workdir, env: { PATH: process.env.PATH ?? '', HOME: home, ...spec.env } });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, spec.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, timedOut, stdout: { text: stdout, truncated: false }, stderr: { text: stderr, truncated: false } });
    });
  });
}

export class ShellStandIn {
  readonly commandLines: string[] = [];
  readonly requests: ShellRequest[] = [];
  readonly run?: (spec: unknown) => Promise<ShellRunResult>;
  readonly execute?: (spec: unknown) => Promise<{ result(): Promise<ShellRunResult> }>;

  constructor(private readonly options: ShellStandInOptions) {
    const finish = (spec: unknown) => this.finish(spec as ResolvedRequest);
    if (options.executeEra) this.execute = async (spec) => ({ result: () => finish(spec) });
    else this.run = finish;
  }

  resolve(request: ShellRequest): ResolvedRequest {
    this.requests.push(request);
    return { ...request, workdir: this.options.workdir, timeoutMs: request.timeoutMs ?? 120_000 };
  }

  private finish(spec: ResolvedRequest): Promise<ShellRunResult> {
    this.commandLines.push(spec.command);
    return this.options.answer === undefined ? runWithBash(spec, this.options.home) : Promise.resolve(this.options.answer);
  }
}

/**
 * A Cordis context with the two stand-ins provided and the plugin (its source, unless another module
 * is given) loaded with `config`: resolves with the tools once they are registered, or with the
 * error Cordis gave the plugin (an invalid config).
 */
export async function loadPlugin(
  shell: ShellStandIn,
  config: Partial<sourcePlugin.PluginConfig> = {},
  plugin: typeof sourcePlugin = sourcePlugin,
): Promise<{ tools: ToolsStandIn; error?: Error }> {
  const tools = new ToolsStandIn();
  const ctx = new Context();
  // Raw, as written in a harness's config: Cordis validates it with the plugin's schema, or refuses it.
  const fork = ctx.plugin(plugin, config as sourcePlugin.PluginConfig);
  ctx.provide('tools');
  ctx.provide('shell');
  ctx.set('tools', tools);
  ctx.set('shell', shell);
  await new Promise((resolve) => setImmediate(resolve));
  return { tools, ...(fork.error === undefined ? {} : { error: fork.error as Error }) };
}
