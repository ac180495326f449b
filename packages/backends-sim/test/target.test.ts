import type { TaskItem } from '@skillopt/contract';
import { createAnswerKey, createSimulatedModel, DEFAULT_TENDENCY_RATES, readSkillRules, skillFromSystemPrompt, type FailureClass } from '../src/index';
import { decideTargetBehaviour } from '../src/target';
import { ask, ENVELOPE, extract, GOOD_SKILL, hardScore, INITIAL_SKILL, normalize, passes, syntheticItems, systemPrompt, userPrompt } from './helpers';

const items = syntheticItems();
const key = createAnswerKey(items);
const target = (seed = 7, noise = 0) => createSimulatedModel({ role: 'target', seed, noise, answerKey: key });
const byId = (id: string): TaskItem => items.find((item) => item.id === id) as TaskItem;

/** Items of a shape on which the class fires under the initial skill (seed 7). */
function itemsWith(failureClass: FailureClass, seed = 7): TaskItem[] {
  return items.filter((item) => {
    const entry = key.lookup(item.question as string);
    return decideTargetBehaviour(
      {
        seed,
        noise: 0,
        tendencyRates: DEFAULT_TENDENCY_RATES,
      },
      key,
      entry,
      item.question as string,
      INITIAL_SKILL,
    ).active.includes(failureClass);
  });
}

describe('the simulated target', () => {
  it('is labelled as simulated', () => {
    const model = target();
    expect(model.provider).toBe('sim');
    expect(model.modelId).toBe('sim-target');
    expect(createSimulatedModel({ role: 'target', modelId: 'gpt-5.5' }).modelId).toBe('sim-gpt-5.5');
  });

  it('is deterministic: same messages and seed, same reply; another seed, other replies', async () => {
    const first = await Promise.all(items.map((item) => ask(target(7), INITIAL_SKILL, item.question as string)));
    const reversed = await Promise.all([...items].reverse().map((item) => ask(target(7), INITIAL_SKILL, item.question as string)));
    expect(reversed.reverse()).toEqual(first);
    const otherSeed = await Promise.all(items.map((item) => ask(target(8), INITIAL_SKILL, item.question as string)));
    expect(otherSeed).not.toEqual(first);
  });

  it('knows the facts of its answer key: with a complete skill and no noise it answers correctly', async () => {
    expect(await passes(target(), GOOD_SKILL, items)).toBe(items.length);
  });

  it('infers answer shapes from the gold when answer_type is absent', () => {
    const shapes = new Map(key.entries.map((entry) => [entry.id, entry.shape]));
    for (const item of items)
      expect(shapes.get(item.id)).toBe(
        String(item.id).startsWith('num')
          ? 'number'
          : String(item.id).startsWith('date')
            ? 'date'
            : String(item.id).startsWith('qty')
              ? 'quantity'
              : String(item.id).startsWith('person')
                ? 'person_surname'
                : String(item.id).startsWith('name')
                  ? 'name'
                  : 'multiword_name',
      );
  });

  const classCases: Array<{ failureClass: FailureClass; check: (reply: string, item: TaskItem) => void; rules: string[] }> = [
    {
      failureClass: 'verbosity',
      check: (reply, item) => {
        const answer = extract(reply);
        expect(answer.split(/\s+/).length).toBeGreaterThan(String(item.references?.[0]).split(/\s+/).length + 1);
      },
      rules: [
        'Put only the answer itself inside the <answer> tags.',
        'Keep the final answer minimal: the bare entity and nothing else.',
        'NEVER add explanations inside the answer tag.',
      ],
    },
    {
      failureClass: 'missing-tag',
      check: (reply) => expect(reply).not.toMatch(/<answer|\[answer/i),
      rules: ['Always wrap the final answer in <answer></answer> tags.', 'Never omit the answer tags.', 'Every response must end with <answer>…</answer>.'],
    },
    {
      failureClass: 'malformed-tag',
      check: (reply) => {
        expect(reply).toMatch(/<answer|\[answer/i);
        expect(reply).not.toMatch(/<answer>[\s\S]*?<\/answer>/);
      },
      rules: ['Write the answer tags exactly as <answer> and </answer>.', 'Always close the answer tag with </answer>.', 'Use well-formed tags.'],
    },
    {
      failureClass: 'number-words',
      check: (reply) =>
        expect(extract(reply)).toMatch(
          /\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy)/,
        ),
      rules: ['Write numbers with digits.', 'Never spell out numbers.', 'Give counts as numerals, not words.'],
    },
    {
      failureClass: 'date-format',
      check: (reply) => expect(extract(reply)).toMatch(/\d{4}-\d{2}-\d{2}|\d{2}\/\d{2}\/\d{4}/),
      rules: ['Write dates with the month name.', 'Do not use ISO or numeric dates.', 'Dates in the form Month D, YYYY.'],
    },
    {
      failureClass: 'unit-appended',
      check: (reply) => expect(extract(reply)).toMatch(/\d+ (metres|kilometres|kilograms)/),
      rules: ['Give the bare number without units.', 'Omit the unit of measurement.', 'Answer with the number alone.'],
    },
    {
      failureClass: 'full-name',
      check: (reply, item) => expect(extract(reply)).toMatch(new RegExp(`[A-Z][a-z]+ ${item.references?.[0]}`)),
      rules: ['For people give only the surname.', 'Use the last name alone, not the full name.', 'Family name only.'],
    },
  ];

  for (const { failureClass, check, rules } of classCases) {
    it(`shows ${failureClass} on some items with the initial skill, fails them, and loses it under a rule (${rules.length} wordings)`, async () => {
      const affected = itemsWith(failureClass);
      expect(affected.length).toBeGreaterThan(0);
      for (const item of affected) {
        const reply = await ask(target(), INITIAL_SKILL, item.question as string);
        check(reply, item);
        expect(hardScore(reply, item.references as string[])).toBe(0);
      }
      for (const rule of rules) {
        const skill = `${INITIAL_SKILL}\n- ${rule}\n`;
        expect(readSkillRules(skill).fixes.has(failureClass)).toBe(true);
        for (const item of affected) {
          const entry = key.lookup(item.question as string);
          const decision = decideTargetBehaviour(
            {
              seed: 7,
              noise: 0,
              tendencyRates: DEFAULT_TENDENCY_RATES,
            },
            key,
            entry,
            item.question as string,
            skill,
          );
          expect(decision.active).not.toContain(failureClass);
        }
      }
    });
  }

  it('only answers of the right shape show shape-specific failures', () => {
    const shapeOf = (item: TaskItem) => key.lookup(item.question as string)?.shape;
    expect(itemsWith('number-words').every((item) => shapeOf(item) === 'number')).toBe(true);
    expect(itemsWith('date-format').every((item) => shapeOf(item) === 'date')).toBe(true);
    expect(itemsWith('unit-appended').every((item) => shapeOf(item) === 'quantity')).toBe(true);
    expect(itemsWith('full-name').every((item) => shapeOf(item) === 'person_surname')).toBe(true);
  });

  it('ignores the env framing before the "## Skill" heading', async () => {
    // ENVELOPE says "you must give a concise final answer inside <answer></answer> tags": not a skill rule.
    expect(ENVELOPE).toMatch(/must/);
    const affected = itemsWith('missing-tag');
    for (const item of affected) expect(await ask(target(), INITIAL_SKILL, item.question as string)).not.toMatch(/<answer/);
  });

  it('finds the skill between "# Skill" and the env\'s "# Task" section, and inside <skill> tags', () => {
    // The framing @skillopt/env-searchqa uses: the skill under "# Skill", then its fixed instruction.
    const framed = `# Skill\n\n${INITIAL_SKILL}\n\n# Task\n\nAnswer the question in the user message. You may reason first; end your reply with your final answer inside <answer></answer>.`;
    expect(readSkillRules(framed).fixes.has('missing-tag')).toBe(true);
    expect(skillFromSystemPrompt(framed).trim()).toBe(INITIAL_SKILL.trim());
    expect(skillFromSystemPrompt(`Preamble that must always use <answer> tags.\n<skill>\n- rule\n</skill>\nMore framing.`).trim()).toBe('- rule');
    expect(skillFromSystemPrompt('just a skill')).toBe('just a skill');
    // A skill with its own top-level headings keeps them.
    const own = '# Answering\n\n## Approach\n\n- Write numbers with digits.\n';
    expect(skillFromSystemPrompt(`# Skill\n\n${own}\n# Task\n\nframing`).trim()).toBe(own.trim());
  });

  it('is hurt by harmful rules', async () => {
    const model = target();
    const good = await passes(model, GOOD_SKILL, items);
    const harmful: Array<[string, (item: TaskItem) => boolean]> = [
      ['Answer in a complete sentence inside the tags.', () => true],
      ['Spell out numbers in words.', (item) => String(item.id).startsWith('num')],
      ['Always include the unit of measurement.', (item) => String(item.id).startsWith('qty')],
      ['Write dates in ISO format (YYYY-MM-DD).', (item) => String(item.id).startsWith('date')],
      ['Answer with a single word whenever possible.', (item) => String(item.id).startsWith('multi') || String(item.id).startsWith('date')],
    ];
    for (const [rule, hits] of harmful) {
      // The harmful rule replaces nothing: it is added to the good skill, so it contradicts a good rule or adds a new harm.
      const skill = `${GOOD_SKILL}- ${rule}\n`;
      const hurt = items.filter(hits);
      const score = await passes(model, skill, hurt);
      expect({ rule, score }).toEqual({ rule, score: expect.any(Number) as number });
      expect(score).toBeLessThan(hurt.length * 0.75);
      expect(await passes(model, skill, items)).toBeLessThan(good);
    }
  });

  it('a harmful rule alone makes its class fail on every item of the shape', async () => {
    const skill = `${INITIAL_SKILL}- Write numbers with digits.\n- Always include the unit of measurement.\n- Always wrap the answer in <answer></answer> tags.\n`;
    for (const item of items.filter((entry) => String(entry.id).startsWith('qty'))) {
      expect(extract(await ask(target(), skill, item.question as string))).toMatch(/\d+ (metres|kilometres|kilograms)/);
    }
  });

  it('contradictory rules flip per item, deterministically', async () => {
    const skill = `${GOOD_SKILL}- Always give a person's full name (first and last name).\n`;
    const people = items.filter((item) => String(item.id).startsWith('person'));
    const runs = await Promise.all(people.map((item) => ask(target(), skill, item.question as string)));
    const fullNames = runs.filter((reply, index) => normalize(extract(reply)) !== normalize(String(people[index]?.references?.[0])));
    expect(fullNames.length).toBeGreaterThan(0);
    expect(fullNames.length).toBeLessThan(people.length);
    expect(await Promise.all(people.map((item) => ask(target(), skill, item.question as string)))).toEqual(runs);
  });

  it('noise flips answers at about the configured rate (count-based, seeded)', async () => {
    const many: TaskItem[] = Array.from({ length: 400 }, (_, index) => ({
      id: `n-${index}`,
      taskType: 'qa',
      question: `What is the codename of project ${index} in region ${index * 13}?`,
      references: [`Codename${index}`],
    }));
    const model = createSimulatedModel({ role: 'target', seed: 3, noise: 0.2, answerKey: createAnswerKey(many) });
    const wrong = (
      await Promise.all(many.map(async (item) => hardScore(await ask(model, GOOD_SKILL, item.question as string), item.references as string[])))
    ).filter((score) => score === 0).length;
    expect(wrong).toBeGreaterThanOrEqual(56);
    expect(wrong).toBeLessThanOrEqual(104);
    const noiseless = createSimulatedModel({ role: 'target', seed: 3, noise: 0, answerKey: createAnswerKey(many) });
    expect(await passes(noiseless, GOOD_SKILL, many.slice(0, 50))).toBe(50);
  });

  it('gives a plausible wrong answer to a question it does not know', async () => {
    const reply = await ask(target(), GOOD_SKILL, 'How many lighthouses stand on the coast of Zembla?');
    expect(extract(reply)).toMatch(/^\d+$/);
  });

  it('simulation: the initial skill scores low; one good rule per class adds at least 25 points', async () => {
    const model = target(11, 0.05);
    const initial = await passes(model, INITIAL_SKILL, items);
    const trained = await passes(model, GOOD_SKILL, items);
    expect(initial / items.length).toBeGreaterThanOrEqual(0.1);
    expect(initial / items.length).toBeLessThanOrEqual(0.45);
    expect(trained - initial).toBeGreaterThanOrEqual(Math.ceil(items.length * 0.25));
  });

  it('in a tool loop calls a tool first, then answers once results arrive', async () => {
    const item = byId('name-3');
    const tools = [
      { name: 'search', description: 'web search', inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
    ];
    const model = target();
    const first = await model.generate({
      messages: [
        { role: 'system', content: systemPrompt(GOOD_SKILL) },
        { role: 'user', content: userPrompt(item.question as string) },
      ],
      tools,
      purpose: 'rollout',
    });
    expect(first.finishReason).toBe('tool-calls');
    expect(first.toolCalls).toHaveLength(1);
    const call = first.toolCalls?.[0];
    expect(call).toMatchObject({ toolName: 'search', input: { query: item.question } });
    const second = await model.generate({
      messages: [
        { role: 'system', content: systemPrompt(GOOD_SKILL) },
        { role: 'user', content: userPrompt(item.question as string) },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: call?.toolCallId as string, toolName: 'search', input: call?.input }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: call?.toolCallId as string, toolName: 'search', output: 'some results' }] },
      ],
      tools,
      purpose: 'rollout',
    });
    expect(second.finishReason).toBe('stop');
    expect(second.toolCalls).toBeUndefined();
    expect(hardScore(second.text, item.references as string[])).toBe(1);
  });

  it('treats image parts as opaque', async () => {
    const item = byId('multi-2');
    const withImage = await target().generate({
      messages: [
        { role: 'system', content: systemPrompt(GOOD_SKILL) },
        {
          role: 'user',
          content: [
            { type: 'image', image: 'data:image/png;base64,iVBORw0KGgo=' },
            { type: 'text', text: userPrompt(item.question as string) },
          ],
        },
      ],
      purpose: 'rollout',
    });
    const without = await target().generate({
      messages: [
        { role: 'system', content: systemPrompt(GOOD_SKILL) },
        { role: 'user', content: userPrompt(item.question as string) },
      ],
      purpose: 'rollout',
    });
    expect(withImage.text).toBe(without.text);
  });

  it('honours abort, also during its latency', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop now'));
    await expect(target().generate({ messages: [{ role: 'user', content: 'hi' }], purpose: 'rollout', signal: controller.signal })).rejects.toThrow('stop now');
    const slow = createSimulatedModel({ role: 'target', latencyMs: 10_000, answerKey: key });
    const late = new AbortController();
    const pending = slow.generate({ messages: [{ role: 'user', content: 'hi' }], purpose: 'rollout', signal: late.signal });
    setTimeout(() => late.abort(new Error('cancelled')), 5);
    await expect(pending).rejects.toThrow('cancelled');
  });

  it('waits its latency when one is set', async () => {
    const started = Date.now();
    await createSimulatedModel({ role: 'target', latencyMs: 20 }).generate({ messages: [{ role: 'user', content: 'hi' }], purpose: 'rollout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });

  it('reports estimated usage from text length and metadata saying it is simulated', async () => {
    const result = await target().generate({ messages: [{ role: 'user', content: 'x'.repeat(400) }], purpose: 'rollout' });
    expect(result.usage.estimated).toBe(true);
    expect(result.usage.inputTokens).toBe(100);
    expect(result.usage.outputTokens).toBe(Math.ceil(result.text.length / 4));
    expect(result.providerMetadata).toMatchObject({ simulated: true });
  });

  it('cuts a reply at maxOutputTokens and says so', async () => {
    const result = await target().generate({
      messages: [{ role: 'user', content: userPrompt(byId('num-1').question as string) }],
      purpose: 'rollout',
      maxOutputTokens: 3,
    });
    expect(result.finishReason).toBe('length');
    expect(result.text.length).toBeLessThanOrEqual(12);
  });

  it('rejects invalid settings with a config-invalid error', () => {
    expect(() => createSimulatedModel({ role: 'target', noise: 2 })).toThrow(expect.objectContaining({ code: 'config-invalid' }) as Error);
    expect(() => createSimulatedModel({ role: 'target', latencyMs: -1 })).toThrow(/latencyMs/);
  });
});
