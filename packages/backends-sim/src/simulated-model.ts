import {
  ERROR_CODES,
  ProviderError,
  SkillOptError,
  messageText,
  readGenerateRequest,
  type CallWarning,
  type ChatModel,
  type GenerateRequest,
  type GenerateResult,
  type Message,
  type ModelCapabilities,
  type ToolCall,
  type ToolDefinition,
} from '@skillopt/contract';
import { abortReason, estimateTokens, sleep, withTimeout } from '@skillopt/backends-kit';
import { planAgentOptimizerStep } from './agent-optimizer-turn.js';
import { decideAlfworldStep, renderAlfworldReply } from './alfworld-player.js';
import { isAlfworldRequest, readAlfworldStep } from './alfworld-request.js';
import { planAgentStep, type AgentStep } from './agent-turn.js';
import { planSpreadsheetAgentStep, workbookPairsOf } from './spreadsheet-agent-turn.js';
import { renderSpreadsheetScript } from './spreadsheet-script.js';
import { EMPTY_ANSWER_KEY, type AnswerKey } from './answer-key.js';
import { DEFAULT_TENDENCY_RATES, readSkillRules, type FailureClass } from './failure-classes.js';
import { hashHex } from './hashing.js';
import { answerOptimizerPrompt } from './optimizer.js';
import { asksForWorkbookScript, decideSpreadsheetBehaviour, renderSpreadsheetReply, renderUnknownSpreadsheetReply } from './spreadsheet-target.js';
import { decideSleepBehaviour, isSleepRuleTask, skillWithDeveloperInstructions, type SleepDecision } from './sleep-target.js';
import { answerSleepJudge, answerSleepMiner, sleepStageOf } from './sleep-stages.js';
import { schemaShapedValue } from './structured-output.js';
import { decideTargetBehaviour, renderTargetReply, skillFromSystemPrompt as defaultSkillFromSystemPrompt } from './target.js';
import { normalizeAnswer } from './text.js';
import type { HardWorld } from './hard-world/hard-world.js';
import type { AnswerKeyEntry } from './answer-key.js';

export const SIMULATED_PROVIDER = 'sim';

export type SimulatedRole = 'target' | 'optimizer' | 'judge';

export interface SimulatedModelOptions {
  /** `target` answers tasks; `optimizer` (and `judge`) answers the optimizer's prompts. */
  role: SimulatedRole;
  /** Everything the model does is a function of the seed and the request. Default 0. */
  seed?: number;
  /** Probability (0..1) that a target answer is replaced by a wrong one (per item and skill). Default 0. */
  noise?: number;
  /** Simulated latency per call, in milliseconds; abortable. Default 0. */
  latencyMs?: number;
  /**
   * The time one call may take, in milliseconds, as a real provider's client gives it: a call
   * slower than this (its latency, say) fails with a retryable `provider-timeout`. Default: none.
   */
  timeoutMs?: number;
  /** The simulated knowledge, or a function returning the current one (read at every call). */
  answerKey?: AnswerKey | (() => AnswerKey);
  /** Probability (0..1) that a reflection proposes a harmful rule. Default 0. */
  harmfulRuleRate?: number;
  /** Probability (0..1) that a reflection proposes a useless rule. Default 0. */
  uselessRuleRate?: number;
  /** Probability (0..1) that an optimizer reply is malformed (never on a re-ask). Default 0. */
  malformedReplyRate?: number;
  /** Defaults to `sim-target` / `sim-optimizer`; an id that does not say "sim" is prefixed `sim-`. */
  modelId?: string;
  /** Overrides of how often each latent failure tendency occurs (0..1 each). */
  tendencyRates?: Partial<Record<FailureClass, number>>;
  /** Where the skill is inside the system prompt (default: `skillFromSystemPrompt`). */
  skillFromSystemPrompt?: (systemPrompt: string) => string;
  /**
   * The hard world, or a function returning the current one (read at every call): question
   * answering and reflection follow it. Absent (or undefined): the demo world.
   */
  hardWorld?: HardWorld | (() => HardWorld | undefined);
}

/** Every model id of this package says it is simulated. */
export function simulatedModelId(modelId: string | undefined, role: SimulatedRole): string {
  if (modelId === undefined || modelId.trim() === '') return `sim-${role}`;
  return /sim/i.test(modelId) ? modelId : `sim-${modelId}`;
}

function invalid(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: `@skillopt/backends-sim: ${message}` });
}

function checkRate(name: string, value: number | undefined): number {
  const rate = value ?? 0;
  if (!(Number.isFinite(rate) && rate >= 0 && rate <= 1)) throw invalid(`${name} must be a probability from 0 to 1, got ${value}`);
  return rate;
}

/** The text the model reads from a message: text parts, tool calls and tool results; images are opaque. */
function readableText(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((part) => {
      switch (part.type) {
        case 'text':
          return part.text;
        case 'tool-call':
          return `${part.toolName}(${JSON.stringify(part.input ?? null)})`;
        case 'tool-result':
          return part.output;
        default:
          return ''; // an image: opaque to this model
      }
    })
    .join('\n');
}

/** What a Sleep replay's reply records about itself, in chat and through a harness alike. */
function sleepReplyMetadata(decision: SleepDecision): Record<string, unknown> {
  return {
    knownQuestion: true,
    sleepRules: decision.rules,
    simulatedFailureClasses: decision.habits,
    ...(decision.harmfulTask ? { harmfulTask: true } : {}),
    noisy: decision.noisy,
  };
}

function argumentsFor(tool: ToolDefinition, question: string): Record<string, unknown> {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: unknown }>;
  const names = Object.keys(properties);
  const required = Array.isArray(tool.inputSchema.required)
    ? (tool.inputSchema.required as unknown[]).filter((name): name is string => typeof name === 'string')
    : [];
  const chosen =
    required.length > 0 ? required : names.filter((name) => properties[name]?.type === undefined || properties[name]?.type === 'string').slice(0, 1);
  const input: Record<string, unknown> = {};
  for (const name of chosen) {
    const type = properties[name]?.type;
    input[name] = type === 'number' || type === 'integer' ? 1 : type === 'boolean' ? false : type === 'array' ? [question] : type === 'object' ? {} : question;
  }
  return input;
}

/**
 * A deterministic, seeded SIMULATED chat model (provider `sim`). It reads messages and writes text
 * like a real model; the same messages and seed always give the same reply, whatever the order of
 * concurrent calls. See the package README for what it does as a target and as an optimizer.
 */
export function createSimulatedModel(options: SimulatedModelOptions): ChatModel {
  if (!['target', 'optimizer', 'judge'].includes(options.role)) throw invalid(`role must be target, optimizer or judge, got ${String(options.role)}`);
  const role = options.role;
  const seed = options.seed ?? 0;
  if (!Number.isFinite(seed)) throw invalid(`seed must be a number, got ${seed}`);
  const noise = checkRate('noise', options.noise);
  const harmfulRuleRate = checkRate('harmfulRuleRate', options.harmfulRuleRate);
  const uselessRuleRate = checkRate('uselessRuleRate', options.uselessRuleRate);
  const malformedReplyRate = checkRate('malformedReplyRate', options.malformedReplyRate);
  const latencyMs = options.latencyMs ?? 0;
  if (!(Number.isFinite(latencyMs) && latencyMs >= 0)) throw invalid(`latencyMs must be a number of at least 0, got ${latencyMs}`);
  const timeoutMs = options.timeoutMs;
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw invalid(`timeoutMs must be a number greater than 0, got ${timeoutMs}`);
  const tendencyRates = { ...DEFAULT_TENDENCY_RATES };
  for (const [name, rate] of Object.entries(options.tendencyRates ?? {})) tendencyRates[name as FailureClass] = checkRate(`tendencyRates.${name}`, rate);
  const modelId = simulatedModelId(options.modelId, role);
  const readKey = (): AnswerKey => (typeof options.answerKey === 'function' ? options.answerKey() : (options.answerKey ?? EMPTY_ANSWER_KEY));
  const findSkill = options.skillFromSystemPrompt ?? defaultSkillFromSystemPrompt;
  const readWorld = (): HardWorld | undefined => (typeof options.hardWorld === 'function' ? options.hardWorld() : options.hardWorld);

  /** A question of the answer key answered under a skill, in the hard world when there is one, else as the demo world does. */
  function answerQuestion(
    key: AnswerKey,
    entry: AnswerKeyEntry | undefined,
    question: string,
    skill: string,
    itemKey: string,
    afterTools: boolean,
  ): { text: string; metadata: Record<string, unknown> } {
    const skillHash = hashHex(skill).slice(0, 16);
    const world = readWorld();
    if (world !== undefined && entry !== undefined && entry.workbookCases === undefined) {
      const answer = world.decideAnswer(entry, skill);
      return {
        text: renderTargetReply(answer.decision, entry, question, [seed, itemKey, skillHash], afterTools),
        metadata: {
          knownQuestion: true,
          simulatedFailureClasses: answer.showing,
          noisy: answer.decision.noisy,
          hardWorld: { knowledgeGap: answer.knowledgeGap, mislabelled: answer.mislabelled, compliance: answer.compliance },
        },
      };
    }
    const decision = decideTargetBehaviour({ seed, noise, tendencyRates }, key, entry, question, skill, readSkillRules(skill));
    return {
      text: renderTargetReply(decision, entry, question, [seed, itemKey, skillHash], afterTools),
      metadata: { knownQuestion: entry !== undefined, simulatedFailureClasses: decision.active, noisy: decision.noisy },
    };
  }

  function answerAsAgent(request: GenerateRequest, step: AgentStep): { text: string; toolCalls?: ToolCall[]; metadata: Record<string, unknown> } {
    if (step.kind === 'read') {
      const toolCallId = `call_sim_${hashHex(seed, 'agent-read', step.file, String(request.messages.length)).slice(0, 16)}`;
      return { text: '', toolCalls: [{ toolCallId, toolName: step.toolName, input: step.input }], metadata: { agentStep: 'read', file: step.file } };
    }
    const key = readKey();
    const entry = key.lookup(step.taskText);
    if (entry !== undefined && isSleepRuleTask(entry)) {
      // A Sleep task through a harness: the skill is the instruction file it installed (with what the developer
      // asked for since the question), and the habits of the missing rules show.
      const followed = skillWithDeveloperInstructions(step.skill, step.reading.userTexts, entry);
      const decision = decideSleepBehaviour({ seed, noise }, entry, followed, readSkillRules(followed));
      return { text: decision.reply, metadata: { agentStep: 'answer', ...sleepReplyMetadata(decision) } };
    }
    const question =
      entry?.question ??
      step.taskText
        .trim()
        .split('\n')
        .filter((line) => line.trim() !== '')
        .pop() ??
      '';
    const itemKey = entry?.normalizedQuestion ?? normalizeAnswer(step.taskText);
    const effects = readSkillRules(step.skill);
    const skillHash = hashHex(step.skill).slice(0, 16);
    const pairs = workbookPairsOf(step.reading.filesRead);
    let text: string;
    let metadata: Record<string, unknown>;
    if (entry?.workbookCases !== undefined && pairs.length > 0) {
      // A spreadsheet task in a workspace: the chat code writer's script, written and run through the harness's tools.
      const decision = decideSpreadsheetBehaviour({ seed, noise, tendencyRates }, itemKey, entry.workbookCases, step.skill, effects, []);
      const script = renderSpreadsheetScript({ cases: decision.cases, active: decision.active, resultSheet: decision.resultSheet, paths: 'command-line' });
      const work = planSpreadsheetAgentStep(step.reading, pairs, script);
      const outcome = { knownQuestion: true, simulatedFailureClasses: decision.active, noisy: decision.noisy };
      if (work.kind === 'tool') {
        const toolCallId = `call_sim_${hashHex(seed, 'spreadsheet-agent', work.action, JSON.stringify(work.input), String(request.messages.length)).slice(0, 16)}`;
        return { text: '', toolCalls: [{ toolCallId, toolName: work.toolName, input: work.input }], metadata: { agentStep: work.action, ...outcome } };
      }
      text = work.text;
      metadata = { agentStep: 'answer', ...outcome, savedWorkbooks: work.saved };
    } else {
      const answered = answerQuestion(key, entry, question, step.skill, itemKey, step.afterTools);
      text = answered.text;
      metadata = { agentStep: 'answer', ...answered.metadata };
    }
    if (step.structuredOutput === undefined) return { text, metadata };
    const toolCallId = `call_sim_${hashHex(seed, 'structured-output', itemKey, skillHash).slice(0, 16)}`;
    return {
      text: '',
      toolCalls: [{ toolCallId, toolName: step.structuredOutput.name, input: schemaShapedValue(step.structuredOutput.inputSchema, text) }],
      metadata,
    };
  }

  function answerAsTarget(request: GenerateRequest): { text: string; toolCalls?: ToolCall[]; metadata: Record<string, unknown> } {
    const step = request.tools === undefined || request.tools.length === 0 ? undefined : planAgentStep(request.messages, request.tools, findSkill);
    if (step !== undefined) return answerAsAgent(request, step);
    const key = readKey();
    const system = request.messages
      .filter((message) => message.role === 'system')
      .map(messageText)
      .join('\n\n');
    const skill = findSkill(system);
    const userTexts = request.messages.filter((message) => message.role === 'user').map(messageText);
    const userText = userTexts.join('\n');
    if (isAlfworldRequest(system, userText)) {
      // A household text game: one action chosen from the step's own admissible list.
      const lastUserText = messageText(request.messages.filter((message) => message.role === 'user').pop() as Message);
      const decision = decideAlfworldStep({ seed, noise, tendencyRates }, readAlfworldStep(lastUserText), readSkillRules(skill));
      return {
        text: renderAlfworldReply(decision),
        metadata: { alfworld: true, action: decision.action, simulatedFailureClasses: decision.active, noisy: decision.noisy },
      };
    }
    const entry = key.lookup(userText);
    if (entry !== undefined && isSleepRuleTask(entry)) {
      // A Sleep task tagged with the formats the developer wanted: the habits of the rules missing from the skill
      // (and from what the developer asked for since the question) show.
      const followed = skillWithDeveloperInstructions(skill, userTexts, entry);
      const decision = decideSleepBehaviour({ seed, noise }, entry, followed, readSkillRules(followed));
      return { text: decision.reply, metadata: sleepReplyMetadata(decision) };
    }
    const question =
      entry?.question ??
      userText
        .trim()
        .split('\n')
        .filter((line) => line.trim() !== '')
        .pop() ??
      '';
    const lastUser = request.messages.map((message) => message.role).lastIndexOf('user');
    const toolTurns = request.messages.slice(lastUser + 1).filter((message) => message.role === 'tool').length;
    const itemKey = entry?.normalizedQuestion ?? normalizeAnswer(userText);
    const tool = request.tools?.[0];
    if (tool !== undefined && toolTurns === 0) {
      const toolCall: ToolCall = {
        toolCallId: `call_sim_${hashHex(seed, 'tool-call', itemKey, tool.name).slice(0, 16)}`,
        toolName: tool.name,
        input: argumentsFor(tool, question),
      };
      return { text: `I will look this up with the ${tool.name} tool first.`, toolCalls: [toolCall], metadata: { knownQuestion: entry !== undefined } };
    }
    const effects = readSkillRules(skill);
    const asksForScript = asksForWorkbookScript(userTexts[0] ?? '');
    if (asksForScript && entry?.workbookCases === undefined)
      return { text: renderUnknownSpreadsheetReply(), metadata: { knownQuestion: false, simulatedFailureClasses: [], noisy: false } };
    if (asksForScript && entry?.workbookCases !== undefined) {
      const feedback = userTexts.slice(1);
      const decision = decideSpreadsheetBehaviour({ seed, noise, tendencyRates }, itemKey, entry.workbookCases, skill, effects, feedback);
      return {
        text: renderSpreadsheetReply(decision, feedback.length > 0),
        metadata: {
          knownQuestion: true,
          simulatedFailureClasses: decision.active,
          ...(decision.fixedByFeedback.length > 0 ? { fixedAfterFeedback: decision.fixedByFeedback } : {}),
          noisy: decision.noisy,
        },
      };
    }
    return answerQuestion(key, entry, question, skill, itemKey, toolTurns > 0);
  }

  async function answer(received: GenerateRequest): Promise<GenerateResult> {
    if (received.signal?.aborted) throw abortReason(received.signal);
    const reading = readGenerateRequest(received);
    if (!reading.ok) {
      throw new ProviderError({
        code: ERROR_CODES.providerBadRequest,
        provider: SIMULATED_PROVIDER,
        status: 400,
        message: `${modelId} (simulated): an invalid request: ${reading.problems.join('; ')}`,
      });
    }
    const request = reading.request;
    const warnings = [...reading.warnings, ...settingsTheSimulationIgnores(request, role)];
    let text: string;
    let toolCalls: ToolCall[] | undefined;
    const metadata: Record<string, unknown> = { simulated: true, note: 'reply written by the SkillOpt simulated model, not a real LLM', role };
    const sleepStage = sleepStageOf(request);
    if (sleepStage !== undefined) {
      // Sleep's judge and miner, told by the call's purpose and the prompt's shape, whatever the role.
      text = sleepStage === 'judge' ? answerSleepJudge(request.messages) : answerSleepMiner(request.messages);
      metadata.stage = sleepStage;
    } else if (role === 'target') {
      const reply = answerAsTarget(request);
      const schema = request.responseFormat?.type === 'json' ? request.responseFormat.schema : undefined;
      text = schema !== undefined && reply.toolCalls === undefined ? JSON.stringify(schemaShapedValue(schema, reply.text)) : reply.text;
      toolCalls = reply.toolCalls;
      Object.assign(metadata, reply.metadata);
      if (request.purpose === 'replay') metadata.stage = 'replay';
    } else {
      const settings = { seed, harmfulRuleRate, uselessRuleRate, malformedReplyRate, modelId, world: readWorld() };
      const agentStep =
        request.tools === undefined || request.tools.length === 0 ? undefined : planAgentOptimizerStep(settings, request.messages, request.tools);
      if (agentStep !== undefined) {
        // The optimizer as an agent's model: it reads and writes the workspace through the harness's tools.
        metadata.stage = 'optimize';
        if (agentStep.kind === 'answer') text = agentStep.text;
        else {
          text = '';
          const toolCallId = `call_sim_${hashHex(seed, 'agent-optimizer', agentStep.action, agentStep.file, String(request.messages.length)).slice(0, 16)}`;
          toolCalls = [{ toolCallId, toolName: agentStep.toolName, input: agentStep.input }];
          Object.assign(metadata, { agentStep: agentStep.action, file: agentStep.file });
        }
      } else {
        const userTexts = request.messages.filter((message) => message.role === 'user').map(messageText);
        const reply = answerOptimizerPrompt(settings, userTexts);
        text = reply.text;
        metadata.stage = reply.stage ?? 'unrecognised';
        if (reply.prompt !== undefined) metadata.prompt = reply.prompt;
        if (reply.malformed) metadata.malformed = true;
      }
    }
    if (latencyMs > 0) await sleep(latencyMs, request.signal);
    else if (request.signal?.aborted) throw abortReason(request.signal);
    let finishReason: GenerateResult['finishReason'] = toolCalls ? 'tool-calls' : 'stop';
    if (request.maxOutputTokens !== undefined && estimateTokens(text) > request.maxOutputTokens) {
      text = text.slice(0, request.maxOutputTokens * 4);
      finishReason = 'length';
      toolCalls = undefined;
    }
    const input = request.messages.map(readableText).join('\n') + (request.tools ? JSON.stringify(request.tools) : '');
    const output = text + (toolCalls ? JSON.stringify(toolCalls) : '');
    return {
      text,
      ...(toolCalls ? { toolCalls } : {}),
      // Simulated counts, derived from text length (backends-kit's estimateTokens), hence `estimated`.
      usage: { inputTokens: estimateTokens(input), outputTokens: estimateTokens(output), estimated: true },
      finishReason,
      providerMetadata: metadata,
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  }

  return {
    specificationVersion: 'v1',
    provider: SIMULATED_PROVIDER,
    modelId,
    capabilities: capabilitiesOf(role),
    defaultConcurrency: SIMULATED_CONCURRENCY,
    generate(received: GenerateRequest): Promise<GenerateResult> {
      if (timeoutMs === undefined) return answer(received);
      return withTimeout((signal) => answer({ ...received, signal }), {
        timeoutMs,
        provider: SIMULATED_PROVIDER,
        operationName: `the simulated call (${modelId})`,
        ...(received.signal ? { signal: received.signal } : {}),
      });
    },
  };
}

/** Nothing is sent anywhere, so only the machine bounds how many calls are in flight. */
const SIMULATED_CONCURRENCY = 64;

/**
 * What the simulated model can honour. It reads image parts (as opaque: its knowledge comes from
 * the answer key, so a document image task still works), calls tools, and reports usage estimated
 * from text length. The target writes its answer in the shape of a given JSON Schema; the optimizer
 * writes the JSON each optimizer prompt asks for and holds no reply to an arbitrary schema. In
 * process it does not stream (`sim serve` streams over HTTP).
 */
function capabilitiesOf(role: SimulatedRole): ModelCapabilities {
  return Object.freeze({ images: true, tools: true, jsonSchemaOutput: role === 'target', streaming: false, reportedUsage: false });
}

/** Request settings that change nothing in a deterministic simulation, reported rather than ignored silently. */
function settingsTheSimulationIgnores(request: GenerateRequest, role: SimulatedRole): CallWarning[] {
  const warnings: CallWarning[] = [];
  if (request.temperature !== undefined)
    warnings.push({
      type: 'unsupported-setting',
      field: 'temperature',
      message: 'the simulated model is deterministic in its seed; temperature has no effect',
    });
  if (request.reasoningEffort !== undefined && request.reasoningEffort !== 'none')
    warnings.push({ type: 'unsupported-setting', field: 'reasoningEffort', message: 'the simulated model does not reason; reasoningEffort has no effect' });
  if (role !== 'target' && request.responseFormat?.type === 'json' && request.responseFormat.schema !== undefined)
    warnings.push({
      type: 'unsupported-setting',
      field: 'responseFormat.schema',
      message: 'the simulated model writes the JSON its prompt asks for and does not hold a reply to the given schema',
    });
  return warnings;
}
