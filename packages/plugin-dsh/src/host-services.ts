/**
 * The two services of the host this plugin injects, `tools` and `shell`, reduced to the members it
 * uses. They are DeepSeek Harness's own services, whose packages this one does not depend on
 * (they need DeepSeek Harness's fork of Cordis and a dozen of its packages): the shapes below are
 * read from `@deepseek-ai/dsh-tools` and `@deepseek-ai/dsh-shell` 0.1.0-rc.8, the versions on npm
 * when this was written, and from DeepSeek Harness 0.1.7's change of the shell service from
 * `run(spec)` to `execute(spec)`. Any Cordis host that provides services of these shapes can load
 * the plugin.
 */

/** The JSON Schema subset DeepSeek Harness accepts for a tool's parameters and output: no ranges or patterns. */
export interface JsonSchema {
  type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  enum?: (string | number | boolean | null)[];
  description?: string;
}

/** One block of what the model reads back from a tool. */
export interface TextContent {
  type: 'text';
  text: string;
}

/** What a tool's body is given besides its arguments: the call's cancellation. */
export interface ToolCall {
  readonly signal?: AbortSignal;
}

/**
 * A tool as `ctx.tools.register` takes it: its schema for the model, the declared output, and the
 * body. A tool registered this way (not through `defineTool`) checks its own arguments.
 */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchema & { type: 'object' };
  output: {
    schema: JsonSchema;
    render(argumentsGiven: unknown, value: unknown): TextContent[];
  };
  execute(argumentsGiven: unknown, call: ToolCall): Promise<unknown>;
}

/** `ctx.tools`: the registration is the calling plugin's, undone with it (the returned function undoes it earlier). */
export interface ToolsService {
  register(definition: ToolDefinition): () => void;
}

/** A command for the shell: the executor fills the working folder and caps the timeout in `resolve`. */
export interface ShellRequest {
  command: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Variables for this command only, set after the executor has removed credential-like ones from its own environment. */
  env?: Record<string, string>;
}

/** Output as the executor collected it: the tail of the stream when it was cut, and where the whole of it went. */
export interface CollectedOutput {
  text: string;
  truncated: boolean;
  spillPath?: string;
}

/** The end of one command. A timeout or a kill ends it with a result, not a rejection. */
export interface ShellRunResult {
  /** null when a signal ended the command. */
  exitCode: number | null;
  /** Whether the executor's own timeout ended it. */
  timedOut: boolean;
  stdout: CollectedOutput;
  stderr: CollectedOutput;
}

/** A resolved request: opaque to the plugin, handed back to the executor as it came. */
export type ShellSpec = unknown;

/**
 * `ctx.shell`. `resolve` turns a request into the executor's full specification; DeepSeek Harness
 * up to 0.1.6 runs it with `run`, from 0.1.7 with `execute`, whose execution yields the same result.
 */
export interface ShellService {
  resolve(request: ShellRequest): ShellSpec;
  run?(spec: ShellSpec): Promise<ShellRunResult>;
  execute?(spec: ShellSpec): Promise<{ result(): Promise<ShellRunResult> }>;
}

/** What `apply` reads from the plugin's Cordis context. */
export interface PluginContext {
  tools: ToolsService;
  shell: ShellService;
}
