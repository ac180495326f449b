import {
  ERROR_CODES,
  ProviderError,
  SkillOptError,
  messageText,
  type ChatModel,
  type Environment,
  type GenerateRequest,
  type TaskItem,
} from '@skillopt/contract';
import { coreConfigSchema, type SkillOptConfigInput } from '../../src/index';

/**
 * Test doubles for the training loop: an arithmetic env whose target writes some answers in words
 * unless the skill asks for digits, and an optimizer that first proposes a harmful rule and, once
 * that rule shows up among the rejected edits, the rule that fixes the failures.
 */

const UNITS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

function inWords(value: number): string {
  if (value < 20) return UNITS[value] as string;
  const tens = TENS[Math.floor(value / 10)] as string;
  return value % 10 === 0 ? tens : `${tens}-${UNITS[value % 10]}`;
}
export const GOOD_RULE = '- Write every number with digits.';
export const HARMFUL_RULE = '- Spell every number out in words.';

// Every question is unique across the splits, so a target call identifies one item.
function items(prefix: string, count: number, firstOperand: number): TaskItem[] {
  return Array.from({ length: count }, (_, index) => {
    const left = firstOperand + index;
    const right = (index % 3) + 1;
    return { id: `${prefix}-${index}`, taskType: 'sum', question: `What is ${left} plus ${right}?`, references: [String(left + right)] };
  });
}

export interface ScriptedTargetOptions {
  /** Item ids whose every call fails with a retryable provider error. */
  failingItemQuestions?: ReadonlySet<string>;
  /** While it answers true, every call fails as if the provider's port refused connections. */
  isDown?: () => boolean;
}

/** The target double: digits for even sums, words for odd ones unless the skill says otherwise. */
export function createScriptedTarget(options: ScriptedTargetOptions = {}) {
  const calls: string[] = [];
  const model: ChatModel = {
    specificationVersion: 'v1',
    provider: 'test-double',
    modelId: 'scripted-target',
    async generate(request: GenerateRequest) {
      const skill = messageText(request.messages[0]!);
      const question = messageText(request.messages.at(-1)!);
      calls.push(`${skill}\u0000${question}`);
      if (options.isDown?.() === true)
        throw new ProviderError({
          code: ERROR_CODES.providerConnection,
          message: 'connect ECONNREFUSED 127.0.0.1:9',
          provider: 'test-double',
          retryable: true,
        });
      if (options.failingItemQuestions?.has(question))
        throw new ProviderError({ code: ERROR_CODES.providerUnavailable, message: 'scripted outage', provider: 'test-double', retryable: true });
      const [, left, right] = /(\d+) plus (\d+)/.exec(question) ?? [];
      const sum = Number(left) + Number(right);
      const spelled = skill.includes(HARMFUL_RULE) || (sum % 2 === 1 && !skill.includes(GOOD_RULE));
      return { text: spelled ? inWords(sum) : String(sum), usage: { inputTokens: 10, outputTokens: 2 }, finishReason: 'stop' };
    },
  };
  return { model, calls };
}

/** The env double: one target call per item, exact match. */
export function createArithmeticEnvironment(): Environment {
  const splits = { train: items('train', 12, 1), val: items('val', 8, 20), test: items('test', 8, 40) };
  return {
    specificationVersion: 'v1',
    id: 'arithmetic',
    targetKinds: ['chat'],
    taskTypes: ['sum'],
    initialSkill: async () => '# Arithmetic\n\nAnswer with the number only.\n',
    loadSplit: async (split) => splits[split],
    async rollout(item, { skill, target, signal }) {
      if (target.kind !== 'chat') throw new Error('chat only');
      const reply = await target.model.generate({
        purpose: 'rollout',
        signal,
        messages: [
          { role: 'system', content: skill },
          { role: 'user', content: String(item.question) },
        ],
      });
      const prediction = reply.text.trim();
      const correct = item.references?.includes(prediction) ?? false;
      return {
        status: 'scored',
        id: item.id,
        taskType: item.taskType,
        hard: correct ? 1 : 0,
        soft: correct ? 1 : 0,
        prediction,
        reference: item.references?.[0],
        trajectory: {
          turns: [
            { role: 'user', content: String(item.question) },
            { role: 'assistant', content: prediction },
          ],
          ...(correct ? {} : { failureReason: `expected ${item.references?.[0]} in digits` }),
        },
      };
    },
  };
}

export interface ScriptedOptimizerOptions {
  /** Throw a non-retryable error on this call (1-based), once. */
  failOnCall?: number;
  /** Writes every reply's JSON with a trailing comma before its last closing bracket, as models sometimes do. */
  trailingCommas?: boolean;
}

/** The optimizer double: answers each stage's prompt in that stage's JSON shape. */
export function createScriptedOptimizer(options: ScriptedOptimizerOptions = {}) {
  let callCount = 0;
  let failed = false;
  const model: ChatModel = {
    specificationVersion: 'v1',
    provider: 'test-double',
    modelId: 'scripted-optimizer',
    async generate(request: GenerateRequest) {
      callCount += 1;
      if (!failed && options.failOnCall === callCount) {
        failed = true;
        throw new SkillOptError({ code: ERROR_CODES.providerAuthentication, category: 'provider', message: 'scripted: the key was revoked', retryable: false });
      }
      const prompt = messageText(request.messages[0]!);
      const harmfulTried = prompt.includes('Spell every number out in words');
      const rule = harmfulTried ? GOOD_RULE : HARMFUL_RULE;
      const written = (value: unknown) => (options.trailingCommas ? JSON.stringify(value).replace(/([}\]])$/, ',$1') : JSON.stringify(value));
      const reply = (value: unknown) => ({ text: written(value), usage: { inputTokens: 100, outputTokens: 20 }, finishReason: 'stop' as const });
      if (prompt.includes('in which the agent FAILED'))
        return reply({
          reasoning: 'numbers in words',
          edits: [{ op: 'append', content: rule, rationale: 'answers must be digits' }],
          ...(prompt.includes('"appendixNotes"') ? { appendixNotes: ['Check the answer is written the way the rules ask.'] } : {}),
        });
      if (prompt.includes('in which the agent SUCCEEDED')) return reply({ reasoning: 'nothing to add', edits: [] });
      if (prompt.startsWith('You consolidate'))
        return reply({ reasoning: 'one rule', edits: [{ op: 'append', content: rule, rationale: 'merged', mergedFrom: [1] }] });
      if (prompt.startsWith('You choose')) return reply({ reasoning: 'the first', selected: [1] });
      if (prompt.startsWith('You decide')) return reply({ reasoning: 'few', learningRate: 1 });
      if (prompt.startsWith('You write the slow-update')) return reply({ reasoning: 'stable', guidance: '- Check the format of the answer before replying.' });
      if (prompt.startsWith('You keep the optimizer'))
        return reply({ reasoning: 'format rules help', metaSkill: '- Format rules helped; verbosity rules did not.' });
      return reply({ reasoning: 'unknown prompt' });
    },
  };
  return { model, calls: () => callCount };
}

/** A small run's config: two epochs of two steps, the whole val split as selection. */
export function trainingConfig(overrides: Partial<Record<keyof SkillOptConfigInput, unknown>> = {}) {
  return coreConfigSchema.parse({
    model: { target: 'scripted-target', optimizer: 'scripted-optimizer', target_backend: 'test-double', optimizer_backend: 'test-double' },
    train: { num_epochs: 2, batch_size: 6, seed: 7 },
    gradient: { minibatch_size: 4, merge_batch_size: 2, analyst_workers: 2 },
    optimizer: { learning_rate: 2, min_learning_rate: 1, slow_update_samples: 4 },
    env: { name: 'arithmetic' },
    run: { retries: 1, rollout_concurrency: 4 },
    ...overrides,
  });
}
