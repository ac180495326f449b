import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type { TaskItem, ToolDefinition } from '@skillopt/contract';
import OpenAI from 'openai';
import { createSimulatedModel, createSimulatorServer, type SimulatorServer } from '../src/index';
import { createAnswerKey } from '../src/answer-key';
import { CLAUDE_CODE_TOOLS, CLAUDE_STRUCTURED_OUTPUT_TOOL, codexResponsesTools, OPENCODE_TOOLS, PI_TOOLS } from './cli-tool-lists';
import { GOOD_SKILL, hardScore, INITIAL_SKILL, syntheticItems, systemPrompt, userPrompt } from './helpers';

const items = syntheticItems();
const PROMPT =
  'Read `task.md` in your working directory and answer the question in it. Follow the skill document you were given. Give the final answer inside <answer></answer>.';
let server: SimulatorServer;
let workspace: string;
let item: TaskItem & { question: string; references: string[] };

/** An item whose latent habit fails it without the skill's rules (chat mode, same seed). */
async function itemTheSkillFixes(): Promise<typeof item> {
  const model = createSimulatedModel({ role: 'target', seed: 7, answerKey: createAnswerKey(items) });
  for (const candidate of items) {
    const reply = async (skill: string) =>
      (
        await model.generate({
          messages: [
            { role: 'system', content: systemPrompt(skill) },
            { role: 'user', content: userPrompt(candidate.question as string) },
          ],
          purpose: 'rollout',
        })
      ).text;
    if (
      hardScore(await reply(INITIAL_SKILL), candidate.references as string[]) === 0 &&
      hardScore(await reply(GOOD_SKILL), candidate.references as string[]) === 1
    )
      return candidate as typeof item;
  }
  throw new Error('no item fails without the skill');
}

beforeAll(async () => {
  server = await createSimulatorServer({ port: 0, seed: 7, noise: 0, items });
  item = await itemTheSkillFixes();
  workspace = mkdtempSync(path.join(os.tmpdir(), 'sim-agent-'));
  writeFileSync(path.join(workspace, 'task.md'), `## Question\n\n${item.question}\n`);
});
afterAll(async () => {
  await server.close();
  rmSync(workspace, { recursive: true, force: true });
});

/** What the harness does with a tool call: run the shell command in the workspace, or read the file. */
function runTool(input: Record<string, unknown>): string {
  const command = input.command ?? input.cmd;
  if (typeof command === 'string') return execFileSync('bash', ['-c', command], { cwd: workspace, encoding: 'utf8' });
  const file = String(input.file_path ?? input.filePath ?? input.path);
  const lines = readFileSync(path.resolve(workspace, file), 'utf8').split('\n');
  // Claude Code's Read numbers lines as `cat -n` does.
  return lines.map((line, index) => `${String(index + 1).padStart(6)}\t${line}`).join('\n');
}

const anthropicTools = (tools: readonly ToolDefinition[]) =>
  tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema as Anthropic.Tool.InputSchema }));
const claudeSystem = () => [
  { type: 'text' as const, text: 'x-anthropic-billing-header: cc_version=2.1.197' },
  { type: 'text' as const, text: `You are Claude Code.\n\n# Environment\nPrimary working directory: ${workspace}` },
];
const claudeMdReminder = (skill: string) =>
  `<system-reminder>\nAs you answer the user's questions, you can use the following context:\n# claudeMd\nCodebase and user instructions are shown below.\n\nContents of ${workspace}/CLAUDE.md (project instructions, checked into the codebase):\n\n${skill}\n</system-reminder>`;

async function claudeCodeTurn(skill: string, extraTools: ToolDefinition[] = []) {
  const client = new Anthropic({ baseURL: server.origin, apiKey: 'any-key', maxRetries: 0 });
  const messages: Anthropic.MessageParam[] = [
    {
      role: 'user',
      content: [
        { type: 'text', text: claudeMdReminder(skill) },
        { type: 'text', text: PROMPT, cache_control: { type: 'ephemeral' } },
      ],
    },
  ];
  const toolCalls: Array<{ name: string; input: Record<string, unknown> }> = [];
  for (let round = 0; round < 6; round += 1) {
    const stream = client.messages.stream({
      model: 'sim-target',
      max_tokens: 32000,
      system: claudeSystem(),
      messages,
      tools: anthropicTools([...CLAUDE_CODE_TOOLS, ...extraTools]),
      thinking: { type: 'adaptive' } as unknown as Anthropic.ThinkingConfigParam,
    });
    const message = await stream.finalMessage();
    messages.push({ role: 'assistant', content: message.content });
    const uses = message.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
    if (message.stop_reason !== 'tool_use')
      return { text: message.content.map((block) => (block.type === 'text' ? block.text : '')).join(''), toolCalls, usage: message.usage };
    for (const use of uses) toolCalls.push({ name: use.name, input: use.input as Record<string, unknown> });
    messages.push({
      role: 'user',
      content: uses.map((use) => ({
        type: 'tool_result' as const,
        tool_use_id: use.id,
        content: use.name === CLAUDE_STRUCTURED_OUTPUT_TOOL.name ? 'Structured output provided successfully' : runTool(use.input as Record<string, unknown>),
      })),
    });
  }
  throw new Error('the agent did not finish in 6 rounds');
}

describe('the simulator as an agent model, end to end on each wire', () => {
  it('Anthropic Messages, streamed (Claude Code shaped): reads task.md with Read, answers with the CLAUDE.md skill applied', async () => {
    const withSkill = await claudeCodeTurn(GOOD_SKILL);
    expect(withSkill.toolCalls).toEqual([{ name: 'Read', input: { file_path: `${workspace}/task.md` } }]);
    expect(hardScore(withSkill.text, item.references)).toBe(1);
    const withoutRules = await claudeCodeTurn(INITIAL_SKILL);
    expect(withoutRules.toolCalls).toHaveLength(1);
    expect(hardScore(withoutRules.text, item.references)).toBe(0); // the habit the skill's rules fix shows again
  });

  it("Anthropic Messages: answers Claude Code's StructuredOutput tool with schema-shaped input, then ends", async () => {
    const turn = await claudeCodeTurn(GOOD_SKILL, [CLAUDE_STRUCTURED_OUTPUT_TOOL]);
    expect(turn.toolCalls.map((call) => call.name)).toEqual(['Read', 'StructuredOutput']);
    const structured = turn.toolCalls[1]?.input as { final_response: string; final_answer: string };
    expect(Object.keys(structured).sort()).toEqual(['final_answer', 'final_response']);
    expect(hardScore(structured.final_response, item.references)).toBe(1);
    expect(hardScore(`<answer>${structured.final_answer}</answer>`, item.references)).toBe(1);
    expect(hardScore(turn.text, item.references)).toBe(1);
  });

  it('accepts a role "system" message inside Anthropic messages', async () => {
    const response = await fetch(`${server.origin}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: 'sim-target',
        max_tokens: 100,
        messages: [
          { role: 'system', content: systemPrompt(GOOD_SKILL) },
          { role: 'user', content: userPrompt(item.question) },
        ],
        context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
        output_config: { effort: 'high' },
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { content: Array<{ text: string }> };
    expect(hardScore(body.content[0]?.text ?? '', item.references)).toBe(1);
  });

  it('Responses, streamed (Codex shaped): reads task.md and the listed workspace SKILL.md with exec_command, answers with that skill', async () => {
    const skillDirectory = path.join(workspace, '.agents', 'skills', 'skillopt-target');
    mkdirSync(skillDirectory, { recursive: true });
    const client = new OpenAI({ baseURL: server.url, apiKey: 'any-key', maxRetries: 0 });
    const run = async (skill: string) => {
      writeFileSync(path.join(skillDirectory, 'SKILL.md'), `---\nname: skillopt-target\ndescription: The trained skill\n---\n\n${skill}`);
      const input: OpenAI.Responses.ResponseInputItem[] = [
        {
          role: 'developer',
          content: [
            {
              type: 'input_text',
              text: `<skills_instructions>\n### Skill roots\n- \`r0\` = \`/home/user/.codex/skills/.system\`\n- \`r1\` = \`${workspace}/.agents/skills\`\n### Available skills\n- imagegen: images (file: r0/imagegen/SKILL.md)\n- skillopt-target: The trained skill (file: r1/skillopt-target/SKILL.md)\n</skills_instructions>`,
            },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'input_text', text: `<environment_context>\n  <cwd>${workspace}</cwd>\n  <shell>bash</shell>\n</environment_context>` }],
        },
        { role: 'user', content: [{ type: 'input_text', text: PROMPT }] },
      ];
      const commands: string[] = [];
      for (let round = 0; round < 6; round += 1) {
        const stream = await client.responses.create({
          model: 'sim-target',
          input,
          tools: codexResponsesTools(),
          tool_choice: 'auto',
          parallel_tool_calls: true,
          store: false,
          stream: true,
        });
        const calls: OpenAI.Responses.ResponseFunctionToolCall[] = [];
        let argumentDeltas = '';
        let completed: OpenAI.Responses.Response | undefined;
        for await (const event of stream) {
          if (event.type === 'response.function_call_arguments.delta') argumentDeltas += event.delta;
          if (event.type === 'response.output_item.done' && event.item.type === 'function_call') calls.push(event.item);
          if (event.type === 'response.completed') completed = event.response;
        }
        expect(completed?.usage?.total_tokens).toBeGreaterThan(0);
        if (calls.length === 0) {
          const message = completed?.output.find((entry) => entry.type === 'message');
          return { commands, text: message?.type === 'message' ? message.content.map((part) => (part.type === 'output_text' ? part.text : '')).join('') : '' };
        }
        expect(argumentDeltas).toBe(calls.map((call) => call.arguments).join(''));
        for (const call of calls) {
          const args = JSON.parse(call.arguments) as Record<string, unknown>;
          commands.push(String(args.cmd));
          input.push(call, { type: 'function_call_output', call_id: call.call_id, output: `Process exited with code 0\nOutput:\n${runTool(args)}` });
        }
      }
      throw new Error('the agent did not finish in 6 rounds');
    };
    const withSkill = await run(GOOD_SKILL);
    expect(withSkill.commands).toEqual(['cat task.md', `cat ${workspace}/.agents/skills/skillopt-target/SKILL.md`]);
    expect(hardScore(withSkill.text, item.references)).toBe(1);
    expect(hardScore((await run(INITIAL_SKILL)).text, item.references)).toBe(0);
  });

  it.each([
    ['not streamed', false],
    ['streamed', true],
  ])('Chat Completions with tools, %s (Pi shaped): reads task.md with read, answers with the system prompt skill', async (_label, stream) => {
    const client = new OpenAI({ baseURL: server.url, apiKey: 'any-key', maxRetries: 0 });
    const run = async (skill: string) => {
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
        { role: 'system', content: `You are an expert coding assistant.\n\n## Skill\n\n${skill}\n\nCurrent working directory: ${workspace}` },
        { role: 'user', content: PROMPT },
      ];
      const tools = PI_TOOLS.map((tool) => ({
        type: 'function' as const,
        function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
      }));
      const reads: Array<Record<string, unknown>> = [];
      for (let round = 0; round < 6; round += 1) {
        let content = '';
        let calls: OpenAI.Chat.ChatCompletionMessageToolCall[] = [];
        if (stream) {
          const chunks = await client.chat.completions.create({ model: 'sim-target', messages, tools, stream: true, stream_options: { include_usage: true } });
          for await (const chunk of chunks) {
            const delta = chunk.choices[0]?.delta;
            content += delta?.content ?? '';
            for (const call of delta?.tool_calls ?? [])
              calls.push({ id: call.id ?? '', type: 'function', function: { name: call.function?.name ?? '', arguments: call.function?.arguments ?? '' } });
          }
        } else {
          const completion = await client.chat.completions.create({ model: 'sim-target', messages, tools });
          content = completion.choices[0]?.message.content ?? '';
          calls = (completion.choices[0]?.message.tool_calls ?? []) as OpenAI.Chat.ChatCompletionMessageToolCall[];
        }
        if (calls.length === 0) return { reads, text: content };
        messages.push({ role: 'assistant', content, tool_calls: calls });
        for (const call of calls) {
          const args = JSON.parse(call.type === 'function' ? call.function.arguments : '{}') as Record<string, unknown>;
          reads.push(args);
          messages.push({ role: 'tool', tool_call_id: call.id, content: readFileSync(path.resolve(workspace, String(args.path)), 'utf8') });
        }
      }
      throw new Error('the agent did not finish in 6 rounds');
    };
    const withSkill = await run(GOOD_SKILL);
    expect(withSkill.reads).toEqual([{ path: 'task.md' }]);
    expect(hardScore(withSkill.text, item.references)).toBe(1);
    expect(hardScore((await run(INITIAL_SKILL)).text, item.references)).toBe(0);
  });

  it('Chat Completions with an OpenCode tool list and json_schema: schema-shaped content after the read', async () => {
    const client = new OpenAI({ baseURL: server.url, apiKey: 'any-key', maxRetries: 0 });
    const tools = OPENCODE_TOOLS.map((tool) => ({
      type: 'function' as const,
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    }));
    const response_format = {
      type: 'json_schema' as const,
      json_schema: {
        name: 'answer',
        schema: { type: 'object', properties: { content: { type: 'string' }, tool_calls: { type: 'array', items: {} } }, required: ['content', 'tool_calls'] },
      },
    };
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'system', content: `## Skill\n\n${GOOD_SKILL}\n\nWorking directory: ${workspace}` },
      { role: 'user', content: PROMPT },
    ];
    const first = await client.chat.completions.create({ model: 'sim-target', messages, tools, response_format });
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call?.type === 'function' ? [call.function.name, JSON.parse(call.function.arguments)] : undefined).toEqual([
      'read',
      { filePath: `${workspace}/task.md` },
    ]);
    messages.push({ role: 'assistant', content: null, tool_calls: [call as OpenAI.Chat.ChatCompletionMessageToolCall] });
    messages.push({
      role: 'tool',
      tool_call_id: call?.id ?? '',
      content: `<content>\n1: ${readFileSync(path.join(workspace, 'task.md'), 'utf8').split('\n').join('\n2: ')}\n</content>`,
    });
    const second = await client.chat.completions.create({ model: 'sim-target', messages, tools, response_format });
    const parsed = JSON.parse(second.choices[0]?.message.content ?? '') as { content: string; tool_calls: unknown[] };
    expect(parsed.tool_calls).toEqual([]);
    expect(hardScore(parsed.content, item.references)).toBe(1);
  });
});

describe('side requests', () => {
  it('counts the tokens of a Messages request as the Messages route accounts them', async () => {
    const request = { model: 'sim-target', system: systemPrompt(GOOD_SKILL), messages: [{ role: 'user' as const, content: userPrompt(item.question) }] };
    const client = new Anthropic({ baseURL: server.origin, apiKey: 'any-key', maxRetries: 0 });
    const counted = await client.messages.countTokens(request);
    const sent = await client.messages.create({ ...request, max_tokens: 1000 });
    expect(counted.input_tokens).toBeGreaterThan(0);
    expect(counted.input_tokens).toBe(sent.usage.input_tokens + (sent.usage.cache_read_input_tokens ?? 0) + (sent.usage.cache_creation_input_tokens ?? 0));
    const unknown = await client.messages.countTokens({ ...request, model: 'claude-haiku-4-5' }).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(Anthropic.NotFoundError);
    expect((unknown as Error).message).toMatch(/claude-haiku-4-5.*serves sim-target and sim-optimizer/);
  });

  it('lists the models in Anthropic’s shape when an anthropic-version header comes, in OpenAI’s otherwise', async () => {
    const client = new Anthropic({ baseURL: server.origin, apiKey: 'any-key', maxRetries: 0 });
    const page = await client.models.list();
    expect(page.data.map((model) => [model.type, model.id])).toEqual([
      ['model', 'sim-target'],
      ['model', 'sim-optimizer'],
    ]);
    expect((await client.models.retrieve('sim-target')).display_name).toMatch(/simulated/);
    const openai = await new OpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 }).models.list();
    expect(openai.data.map((model) => [model.object, model.id])).toEqual([
      ['model', 'sim-target'],
      ['model', 'sim-optimizer'],
    ]);
  });

  it('refuses a side request for a model id it does not serve on every wire, naming the served ids', async () => {
    const openai = new OpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
    const anthropic = new Anthropic({ baseURL: server.origin, apiKey: 'k', maxRetries: 0 });
    const refusals = await Promise.all([
      openai.chat.completions.create({ model: 'gpt-5-mini', messages: [{ role: 'user', content: 'title this' }] }).catch((error: unknown) => error),
      openai.responses.create({ model: 'gpt-5-mini', input: 'title this' }).catch((error: unknown) => error),
      anthropic.messages
        .create({ model: 'claude-haiku-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'title this' }] })
        .catch((error: unknown) => error),
    ]);
    for (const refusal of refusals) {
      expect((refusal as { status?: number }).status).toBe(404);
      expect((refusal as Error).message).toMatch(/sim-target and sim-optimizer/);
    }
  });
});
