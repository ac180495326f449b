import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A stand-in for Cursor's agent CLI, which is not on npm and cannot be run here: a real program
 * that takes cursor-agent's command line and plays its headless protocol (upstream-sleep.md §5.6,
 * upstream-backends.md §1.9), with `sim serve` (Chat Completions on loopback) as its model, so what
 * it answers depends on the skill it was given. What it does, as Cursor would:
 *
 * - refuses an option it does not know (`error: unknown option '<flag>'`, exit 1) and a run without
 *   CURSOR_API_KEY (`Error: Authentication required…`, exit 1), printing no JSON;
 * - reads its permissions from `$CURSOR_CONFIG_DIR/cli-config.json`, never from HOME;
 * - puts the workspace's AGENTS.md and its always-applied `.cursor/rules/*.mdc` into the model's
 *   context, each under a "Contents of <path>:" heading;
 * - offers the model a file reader (in Ask mode and with --force alike) unless `Read(**)` is denied,
 *   runs its calls inside the workspace only, and prints each as `tool_call` started/completed;
 * - prints `system` init, the prompt as `user`, each `assistant` message and a final `result` with
 *   the tokens the model reported summed as `usage` (`inputTokens` without the cached part, which is
 *   `cacheReadTokens`); `--output-format json` prints the result alone. A model error is an error
 *   result and exit 1.
 */
const PROGRAM = String.raw`
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

const MODEL_BASE_URL = __BASE_URL__;
const VALUE_FLAGS = new Set(['--output-format', '--workspace', '--model', '--mode', '--sandbox']);
const SWITCHES = new Set(['-p', '--print', '--trust', '--force']);
const options = {};
const argv = process.argv.slice(2);
for (let index = 0; index < argv.length; index += 1) {
  const flag = argv[index];
  if (SWITCHES.has(flag)) options[flag] = true;
  else if (VALUE_FLAGS.has(flag)) options[flag] = argv[(index += 1)];
  else {
    process.stderr.write("error: unknown option '" + flag + "'\n");
    process.exit(1);
  }
}
if (!process.env.CURSOR_API_KEY) {
  process.stderr.write('Error: Authentication required. Please run cursor-agent login or set CURSOR_API_KEY.\n');
  process.exit(1);
}
const workspace = options['--workspace'] ?? process.cwd();
const format = options['--output-format'] ?? 'text';
const session_id = randomUUID();
const print = (event) => {
  if (format === 'stream-json' || (format === 'json' && event.type === 'result')) process.stdout.write(JSON.stringify(event) + '\n');
};
const configFile = path.join(process.env.CURSOR_CONFIG_DIR ?? '', 'cli-config.json');
const config = existsSync(configFile) ? JSON.parse(readFileSync(configFile, 'utf8')) : {};
const denied = new Set(config.permissions?.deny ?? []);

const withoutFrontMatter = (text) => text.replace(/^---\n[\s\S]*?\n---\n?/, '').trim();
const rules = [];
const agentsFile = path.join(workspace, 'AGENTS.md');
if (existsSync(agentsFile)) rules.push([agentsFile, readFileSync(agentsFile, 'utf8')]);
const rulesFolder = path.join(workspace, '.cursor', 'rules');
if (existsSync(rulesFolder))
  for (const name of readdirSync(rulesFolder).sort())
    if (name.endsWith('.mdc')) {
      const text = readFileSync(path.join(rulesFolder, name), 'utf8');
      if (/^alwaysApply:\s*true\s*$/m.test(text)) rules.push([path.join(rulesFolder, name), text]);
    }
const system = [
  'You are a coding agent in the Cursor CLI, working headless. Working directory: ' + workspace,
  options['--force'] ? 'You may edit files in the workspace.' : 'Ask mode: read files, change nothing.',
  ...rules.map(([file, text]) => 'Contents of ' + file + ':\n' + withoutFrontMatter(text)),
].join('\n\n');

const readTool = {
  type: 'function',
  function: {
    name: 'read_file',
    description: 'Read a file of the workspace.',
    parameters: { type: 'object', properties: { path: { type: 'string', description: 'The file, relative to the workspace.' } }, required: ['path'] },
  },
};
function readInWorkspace(file) {
  const resolved = path.resolve(workspace, file);
  if (resolved !== workspace && !resolved.startsWith(workspace + path.sep)) return { error: { message: 'Path is outside the workspace' } };
  if (!existsSync(resolved)) return { error: { message: 'File not found: ' + file } };
  return { success: { content: readFileSync(resolved, 'utf8') } };
}

let prompt = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) prompt += chunk;
const started = Date.now();
print({ type: 'system', subtype: 'init', apiKeySource: 'env', cwd: workspace, session_id, model: options['--model'] ?? 'auto', permissionMode: options['--force'] ? 'force' : 'default' });
print({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: prompt }] }, session_id });

const messages = [{ role: 'system', content: system }, { role: 'user', content: prompt }];
const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
const texts = [];
function fail(message) {
  print({ type: 'result', subtype: 'error', is_error: true, duration_ms: Date.now() - started, result: message, session_id });
  process.exit(1);
}
for (let turn = 0; turn < 8; turn += 1) {
  const response = await fetch(MODEL_BASE_URL + '/chat/completions', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer ' + process.env.CURSOR_API_KEY },
    body: JSON.stringify({ model: options['--model'] ?? 'auto', messages, ...(denied.has('Read(**)') ? {} : { tools: [readTool] }), stream: false }),
  }).catch((error) => fail('network error: ' + error.message));
  const body = await response.json().catch(() => ({}));
  if (!response.ok) fail('model request failed with status ' + response.status + ': ' + (body.error?.message ?? ''));
  const cached = body.usage?.prompt_tokens_details?.cached_tokens ?? 0;
  usage.inputTokens += (body.usage?.prompt_tokens ?? 0) - cached;
  usage.cacheReadTokens += cached;
  usage.outputTokens += body.usage?.completion_tokens ?? 0;
  const message = body.choices?.[0]?.message ?? {};
  if (typeof message.content === 'string' && message.content !== '') {
    texts.push(message.content);
    print({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: message.content }] }, session_id });
  }
  const calls = message.tool_calls ?? [];
  if (calls.length === 0) {
    print({ type: 'result', subtype: 'success', is_error: false, duration_ms: Date.now() - started, duration_api_ms: Date.now() - started, result: texts.join(''), session_id, request_id: randomUUID(), usage });
    process.exit(0);
  }
  messages.push({ role: 'assistant', content: message.content ?? null, tool_calls: calls });
  for (const call of calls) {
    const args = JSON.parse(call.function.arguments || '{}');
    print({ type: 'tool_call', subtype: 'started', call_id: call.id, tool_call: { readToolCall: { args } }, session_id });
    const result = readInWorkspace(String(args.path ?? ''));
    print({ type: 'tool_call', subtype: 'completed', call_id: call.id, tool_call: { readToolCall: { args, result } }, session_id });
    messages.push({ role: 'tool', tool_call_id: call.id, content: result.success ? result.success.content : 'Error: ' + result.error.message });
  }
}
fail('the agent made too many tool calls');
`;

/** Writes the stand-in into `directory`, talking to the Chat Completions API at `modelBaseUrl` (`…/v1`), and returns its path. */
export async function installSimCursorAgent(directory: string, modelBaseUrl: string): Promise<string> {
  const file = path.join(directory, 'cursor-agent.mjs');
  await writeFile(file, `#!/usr/bin/env node\n${PROGRAM.replace('__BASE_URL__', JSON.stringify(modelBaseUrl.replace(/\/+$/, '')))}`, 'utf8');
  await chmod(file, 0o755);
  return file;
}
