import path from 'node:path';
import {
  assistantToolCallMessage,
  chatTargetModel,
  createSplitSource,
  describeToolCall,
  generateBefore,
  runAgentTask,
  startItemDeadline,
  toolResultPart,
} from '@skillopt/env-kit';
import {
  addUsage,
  type AgentRunner,
  ERROR_CODES,
  SkillOptError,
  type Environment,
  type Message,
  type RolloutContext,
  type RolloutResult,
  type TaskItem,
  type TrajectoryTurn,
  type Usage,
} from '@skillopt/contract';
import { abortable } from '@skillopt/runtime-kit';
import { parseOfficeQaConfig, type OfficeQaConfig, type OfficeQaConfigInput } from './config.js';
import { itemDocumentFiles } from './agent-workspace.js';
import { locateItemDocuments, resolveDocumentRoots } from './corpus.js';
import { scoreOfficeQaReply, type OfficeQaScore } from './evaluator.js';
import initialSkillText from './initial-skill.md';
import { OFFICEQA_TASK_TYPES, officeQaItemMapper, type OfficeQaTaskItem } from './items.js';
import { AGENT_TASK_NOTES, buildSystemPrompt, buildUserPrompt } from './prompt.js';
import { checkSearchSetup, type OfficeQaEnvironmentOptions, searchForRollout } from './search-setup.js';
import { createSearchSession, SEARCH_TOOL, type SearchSession } from './search-tool.js';
import { OFFICEQA_TOOLS, runOfficeQaTool } from './tools.js';

/** The env's id: what `env.name` says in a config. */
export const OFFICEQA_ENVIRONMENT_ID = 'officeqa';

/** The initial skill shipped with the package (markdown). */
export const OFFICEQA_INITIAL_SKILL: string = initialSkillText;

/** How much of each tool result the trajectory keeps (the model itself got the whole result). */
export const TRAJECTORY_TOOL_OUTPUT_CHARS = 600;

/** The failure reason of an item whose model was still calling tools on its last allowed call. */
export const TURN_LIMIT_REASON = 'turn limit reached';

function formatScore(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(4);
}

/** Shortens a text for the trajectory, saying how much was left out. */
function shortenForTrajectory(text: string, maxCharacters = TRAJECTORY_TOOL_OUTPUT_CHARS): string {
  return text.length <= maxCharacters ? text : `${text.slice(0, maxCharacters)} [... ${text.length - maxCharacters} more characters]`;
}

/** The evaluator's feedback as the optimizer reads it: what was scored, against what, and why it failed. */
export function describeEvaluation(score: OfficeQaScore, reference: string): string {
  const where =
    score.source === 'tag'
      ? 'from the first <answer> tag'
      : score.source === 'last-line'
        ? 'no <answer> tag found; taken from the last non-empty line'
        : 'the reply was empty';
  return [
    'Evaluation',
    `Extracted answer: ${JSON.stringify(score.prediction)} (${where})`,
    `Reference answer: ${JSON.stringify(reference)}`,
    `Exact match: ${score.em}   Token F1: ${formatScore(score.f1)}`,
    score.failureReason === undefined ? 'Verdict: correct' : `Verdict: wrong: ${score.failureReason}`,
  ].join('\n');
}

function asOfficeQaItem(item: TaskItem): OfficeQaTaskItem {
  const files = (item as { files?: unknown }).files;
  if (typeof item.question !== 'string' || !Array.isArray(item.references) || item.references.length === 0 || !Array.isArray(files)) {
    throw new SkillOptError({
      code: ERROR_CODES.dataInvalid,
      category: 'user',
      message: `officeqa item ${item.id} has no question, references or files; load items with this env's loadSplit`,
      details: { id: item.id },
    });
  }
  return item as OfficeQaTaskItem;
}
const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0 };

/**
 * Rolls one item out on an agent: one run whose workspace holds the user prompt as `task.md` and
 * copies of the item's own documents under `documents/`, within the item's `exec_timeout`; the
 * final text is scored as the chat loop's last reply is. The agent's harness brings its own tools.
 */
async function rolloutOfficeQaItemOnAgent(
  config: OfficeQaConfig,
  item: OfficeQaTaskItem,
  runner: AgentRunner,
  context: RolloutContext,
): Promise<RolloutResult> {
  const { signal } = context;
  const reference = item.references[0] as string;
  const roots = await abortable(resolveDocumentRoots(documentFolders(config)), signal);
  const documents = await abortable(locateItemDocuments(item.id, item.files, roots), signal);
  const files = await abortable(itemDocumentFiles(item.id, documents), signal);
  const userPrompt = buildUserPrompt(item.question, item.files, item.sourceDocs);
  const started = Date.now();
  const run = await runAgentTask(runner, { text: userPrompt, files, notes: AGENT_TASK_NOTES }, context, config.exec_timeout * 1000);
  const durationMs = Date.now() - started;
  const score = scoreOfficeQaReply(run.finalText, reference);
  const turns: TrajectoryTurn[] = [
    { role: 'user', content: userPrompt },
    { role: 'assistant', content: run.finalText },
    { role: 'environment', content: describeEvaluation(score, reference) },
  ];
  return {
    status: 'scored',
    id: item.id,
    taskType: item.taskType,
    reference,
    usage: run.usage,
    durationMs,
    hard: score.hard,
    soft: score.soft,
    prediction: score.prediction,
    trajectory: score.failureReason === undefined ? { turns } : { turns, failureReason: score.failureReason },
    details: { ...run.details, files: item.files, em: score.em, f1: score.f1, answerSource: score.source },
  };
}

/**
 * Rolls one item out: on an agent, one run (see `rolloutOfficeQaItemOnAgent`); on a chat model, a
 * tool loop of at most `max_tool_turns` target calls (`purpose: 'rollout'`).
 * A reply with tool calls gets them run against the item's own documents and answered in a tool
 * message; the first reply without tool calls is the answer, scored by exact match (hard) and
 * token F1 (soft). A model still calling tools on its last allowed call fails the item ("turn limit
 * reached", scored 0: a task outcome). Errors of the target, the run's abort and the item's
 * `exec_timeout` (a retryable provider-timeout) propagate: they are never scored.
 * In online mode the chat model also gets the `search` tool (at most `max_queries_per_turn` searches
 * a turn); a failure of the search provider propagates like the model's.
 */
export async function rolloutOfficeQaItem(
  config: OfficeQaConfig,
  taskItem: TaskItem,
  context: RolloutContext,
  options: OfficeQaEnvironmentOptions = {},
): Promise<RolloutResult> {
  const { target, signal, skill } = context;
  signal.throwIfAborted();
  if (target.kind === 'agent') {
    if (config.search_mode === 'online')
      throw new SkillOptError({
        code: ERROR_CODES.configInvalid,
        category: 'user',
        message:
          'invalid officeqa config: env.search_mode: online search is offered to chat targets only; an agent harness brings its own tools (and its own web access settings), so set search_mode: offline for an agent target',
        details: { key: 'env.search_mode' },
      });
    return rolloutOfficeQaItemOnAgent(config, asOfficeQaItem(taskItem), target.runner, context);
  }
  const model = chatTargetModel(target, 'officeqa', 'a chat model with tools');
  const item = asOfficeQaItem(taskItem);
  const search = searchForRollout(config, options);
  const session: SearchSession | undefined =
    search === undefined
      ? undefined
      : createSearchSession({
          provider: search.provider,
          maxQueriesPerTurn: config.max_queries_per_turn,
          maxResults: config.search_max_num_results,
          maxOutputCharacters: config.max_tool_output_chars,
          knownSecrets: search.knownSecrets,
        });
  const tools = session === undefined ? OFFICEQA_TOOLS : [...OFFICEQA_TOOLS, SEARCH_TOOL];
  const reference = item.references[0] as string;
  const started = Date.now();
  const deadline = startItemDeadline(signal, config.exec_timeout * 1000, model, `officeqa item ${item.id}: the tool loop`, item.id);
  try {
    const roots = await abortable(resolveDocumentRoots(documentFolders(config)), deadline.signal);
    const documents = await abortable(locateItemDocuments(item.id, item.files, roots), deadline.signal);
    const userPrompt = buildUserPrompt(item.question, item.files, item.sourceDocs);
    const messages: Message[] = [
      { role: 'system', content: buildSystemPrompt(skill, { search: session !== undefined }) },
      { role: 'user', content: userPrompt },
    ];
    const turns: TrajectoryTurn[] = [{ role: 'user', content: userPrompt }];
    let usage = ZERO_USAGE;
    let toolCallCount = 0;
    let toolErrorCount = 0;
    let finalReply: string | undefined;
    let finishReason: string | undefined;
    let modelCalls = 0;

    while (modelCalls < config.max_tool_turns) {
      // The messages are copied: the conversation grows after the call, and a provider (or a test double) may keep the request.
      const reply = await generateBefore(
        model,
        { messages: [...messages], tools: [...tools], maxOutputTokens: config.max_completion_tokens, purpose: 'rollout' },
        deadline.signal,
      );
      modelCalls += 1;
      usage = addUsage(usage, reply.usage);
      finishReason = reply.finishReason;
      const calls = reply.toolCalls ?? [];
      if (calls.length === 0) {
        finalReply = reply.text;
        turns.push({ role: 'assistant', content: reply.text });
        break;
      }
      const callLines = calls.map((call) => `[tool call] ${describeToolCall(call)}`).join('\n');
      turns.push({
        role: 'assistant',
        content: reply.text.trim() === '' ? callLines : `${reply.text.trim()}\n${callLines}`,
        toolName: [...new Set(calls.map((call) => call.toolName))].join(', '),
      });
      if (modelCalls >= config.max_tool_turns) break;
      messages.push(assistantToolCallMessage(reply.text, calls));
      const results = [];
      session?.startTurn();
      for (const call of calls) {
        deadline.signal.throwIfAborted();
        const run =
          session !== undefined && call.toolName === SEARCH_TOOL.name
            ? session.run(call, deadline.signal)
            : runOfficeQaTool(call, documents, config.max_tool_output_chars);
        const outcome = await abortable(run, deadline.signal);
        toolCallCount += 1;
        if (outcome.isError) toolErrorCount += 1;
        results.push(toolResultPart(call, outcome));
        turns.push({ role: 'tool', toolName: call.toolName, content: `${outcome.isError ? '[error] ' : ''}${shortenForTrajectory(outcome.output)}` });
      }
      messages.push({ role: 'tool', content: results });
    }

    const durationMs = Date.now() - started;
    const common = {
      id: item.id,
      taskType: item.taskType,
      reference,
      usage,
      durationMs,
    };
    const details = {
      modelCalls,
      toolCalls: toolCallCount,
      toolErrors: toolErrorCount,
      finishReason,
      files: item.files,
      searchMode: config.search_mode,
      ...(session === undefined ? {} : { ...session.statistics, searchProvider: search?.provider.id }),
    };
    if (finalReply === undefined) {
      const failureReason = `${TURN_LIMIT_REASON}: the model was still calling tools after ${modelCalls} model calls (max_tool_turns ${config.max_tool_turns}) and gave no answer`;
      turns.push({ role: 'environment', content: `Evaluation\nNo answer: ${failureReason}\nReference answer: ${JSON.stringify(reference)}\nVerdict: wrong` });
      return {
        status: 'scored',
        ...common,
        hard: 0,
        soft: 0,
        prediction: '',
        trajectory: { turns, failureReason },
        details: { ...details, em: 0, f1: 0, answerSource: 'none', turnLimitReached: true },
      };
    }
    const score = scoreOfficeQaReply(finalReply, reference);
    turns.push({ role: 'environment', content: describeEvaluation(score, reference) });
    return {
      status: 'scored',
      ...common,
      hard: score.hard,
      soft: score.soft,
      prediction: score.prediction,
      trajectory: score.failureReason === undefined ? { turns } : { turns, failureReason: score.failureReason },
      details: { ...details, em: score.em, f1: score.f1, answerSource: score.source, turnLimitReached: false },
    };
  } finally {
    deadline.dispose();
  }
}

/** The document folders of a config, `corpus_dir` first. */
function documentFolders(config: Pick<OfficeQaConfig, 'corpus_dir' | 'data_dirs'>): string[] {
  return [...(config.corpus_dir.trim() === '' ? [] : [config.corpus_dir]), ...config.data_dirs];
}

/**
 * The OfficeQA environment for a config section (validated here, so a raw object works too). In
 * online mode it checks now that search can run (an endpoint, its token variable set).
 */
export function createOfficeQaEnvironment(input: OfficeQaConfigInput | OfficeQaConfig = {}, options: OfficeQaEnvironmentOptions = {}): Environment {
  const parsed = parseOfficeQaConfig(input);
  checkSearchSetup(parsed, options);
  // Document folders are resolved once, against the working directory at creation.
  const config: OfficeQaConfig = {
    ...parsed,
    corpus_dir: parsed.corpus_dir.trim() === '' ? '' : path.resolve(parsed.corpus_dir),
    data_dirs: parsed.data_dirs.map((folder) => path.resolve(folder)),
  };
  const splits = createSplitSource(config, officeQaItemMapper);

  return {
    specificationVersion: 'v1',
    id: OFFICEQA_ENVIRONMENT_ID,
    targetKinds: ['chat', 'agent'],
    taskTypes: OFFICEQA_TASK_TYPES,
    initialSkill: async () => OFFICEQA_INITIAL_SKILL,
    loadSplit: (split) => splits.load(split),
    rollout: (item, context) => rolloutOfficeQaItem(config, item, context, options),
  };
}
