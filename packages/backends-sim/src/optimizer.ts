import {
  ANSWER_HARM_KINDS,
  CLASS_DESCRIPTIONS,
  FAILURE_CLASSES,
  GOOD_RULE_PHRASINGS,
  HARM_KINDS,
  HARMFUL_RULE_PHRASINGS,
  harmfulLines,
  readSkillRules,
  USELESS_RULE_PHRASINGS,
  type FailureClass,
  type HarmKind,
} from './failure-classes.js';
import { OPTIMIZER_PROMPT_STAGES, OPTIMIZER_STAGES, type OptimizerPrompt, type OptimizerStage } from '@skillopt/contract';
import { hashHex, pick, unitHash } from './hashing.js';
import {
  currentSkillOf,
  detectPrompt,
  diagnoseTrajectory,
  readNumberedEdits,
  readTrajectories,
  sectionBetween,
  type NumberedEdit,
  type ReadTrajectory,
} from './prompt-reading.js';
import { ALFWORLD_FAILURE_CLASSES } from './alfworld-failure-classes.js';
import { isAlfworldTrajectory } from './alfworld-diagnosis.js';
import { isSpreadsheetTrajectory } from './spreadsheet-diagnosis.js';
import { SPREADSHEET_FAILURE_CLASSES } from './spreadsheet-failure-classes.js';
import { isSleepTrajectory } from './sleep-diagnosis.js';
import { SLEEP_FORMAT_HARM } from './sleep-failure-classes.js';
import type { HardWorld } from './hard-world/hard-world.js';
import { proposeConcept, proposeOverSpecificRule } from './hard-world/rule-proposal.js';

export interface OptimizerSettings {
  seed: number;
  harmfulRuleRate: number;
  uselessRuleRate: number;
  malformedReplyRate: number;
  modelId: string;
  /** The hard world, when the run simulates it: proposals follow its concepts, with its misdiagnosis, vagueness and over-specific rates. */
  world?: HardWorld | undefined;
}

/** The reply of the simulated optimizer: the text, and the prompt and stage it recognised (for metadata). */
export interface OptimizerReply {
  text: string;
  prompt: OptimizerPrompt | undefined;
  stage: OptimizerStage | undefined;
  malformed: boolean;
}

interface ProposedEdit {
  op: 'append' | 'insert_after' | 'replace' | 'delete';
  target?: string;
  content?: string;
  rationale: string;
}

const RE_ASK = /^Your reply could not be used/;

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/**
 * Answers one optimizer prompt. The stage is recognised from the prompt's text; the reply follows
 * the JSON shape that stage's template asks for. Deterministic in (seed, conversation).
 */
export function answerOptimizerPrompt(settings: OptimizerSettings, userTexts: readonly string[]): OptimizerReply {
  const prompt = userTexts.find((text) => detectPrompt(text) !== undefined) ?? userTexts[0] ?? '';
  const template = detectPrompt(prompt);
  const recognised = template === undefined ? { prompt: undefined, stage: undefined } : { prompt: template, stage: OPTIMIZER_PROMPT_STAGES[template] };
  const promptHash = hashHex(prompt).slice(0, 24);
  const last = userTexts[userTexts.length - 1] ?? '';
  const isReAsk = userTexts.length > 1 && RE_ASK.test(last);
  const label = `${settings.modelId} (a simulated model)`;
  if (template === undefined) {
    return {
      ...recognised,
      malformed: false,
      text:
        `I am ${label}, the SkillOpt simulated optimizer. I do not recognise this request: I only answer the prompts of the SkillOpt optimizer ` +
        `(${OPTIMIZER_STAGES.join(', ')}), so I cannot help with it.`,
    };
  }
  if (!isReAsk && settings.malformedReplyRate > 0 && unitHash(settings.seed, 'malformed', promptHash) < settings.malformedReplyRate) {
    const text = pick(
      [
        `Here is what I would change (${label}): tighten the answer-format rules. {"reasoning": "simulated malformed reply", "result": "see above"}`,
        `Sure! As ${label} I suggest improving the answer format rules, but I forgot the JSON this time.`,
      ],
      settings.seed,
      'malformed-text',
      promptHash,
    );
    return { ...recognised, malformed: true, text };
  }
  const context = { settings, prompt, promptHash, label };
  const value = (() => {
    switch (template) {
      case 'reflect-failure':
        return reflectOnFailures(context);
      case 'reflect-success':
        return reflectOnSuccesses(context);
      case 'merge':
        return mergeEdits(context);
      case 'rank':
        return rankEdits(context);
      case 'lr-decide':
        return decideLearningRate(context);
      case 'rewrite-from-suggestions':
        return rewriteFromSuggestions(context);
      case 'full-rewrite':
        return fullRewrite(context);
      case 'slow-update':
        return slowUpdate(context);
      case 'meta-skill':
        return metaSkill(context);
      case 'appendix-consolidate':
        return consolidateNotes(context);
    }
  })();
  return { ...recognised, malformed: false, text: json(value) };
}

interface StageContext {
  settings: OptimizerSettings;
  prompt: string;
  promptHash: string;
  label: string;
}

/** Failure classes seen in failed trajectories, most frequent first (ties in class order). */
function classCounts(trajectories: readonly ReadTrajectory[]): Array<[HarmKind, number]> {
  const counts = new Map<HarmKind, number>();
  for (const trajectory of trajectories) for (const found of diagnoseTrajectory(trajectory)) counts.set(found, (counts.get(found) ?? 0) + 1);
  return [...counts.entries()].sort((left, right) => right[1] - left[1] || HARM_KINDS.indexOf(left[0]) - HARM_KINDS.indexOf(right[0]));
}

function occurrences(text: string, needle: string): number {
  if (needle === '') return 0;
  let count = 0;
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + 1)) count += 1;
  return count;
}

function bulletStyle(skill: string): string {
  return /^\s*[-*] /m.test(skill) ? '- ' : '';
}

/** A line of the skill that occurs exactly once, outside protected blocks, to anchor an insert_after. */
function anchorLine(skill: string): string | undefined {
  let inProtected = false;
  for (const line of skill.split('\n')) {
    if (/<!--\s*\w+_START\s*-->/.test(line)) inProtected = true;
    if (inProtected) {
      if (/<!--\s*\w+_END\s*-->/.test(line)) inProtected = false;
      continue;
    }
    if (line.trim() !== '' && !line.includes('<!--') && occurrences(skill, line) === 1) return line;
  }
  return undefined;
}

function ruleEdit(context: StageContext, skill: string, failureClass: FailureClass, support: number): ProposedEdit {
  const { seed } = context.settings;
  const content = `${bulletStyle(skill)}${pick(GOOD_RULE_PHRASINGS[failureClass], seed, 'phrasing', context.promptHash, failureClass)}`;
  const rationale = `Prevents ${CLASS_DESCRIPTIONS[failureClass]} (seen in ${support} failed trajectories).`;
  const anchor = anchorLine(skill);
  if (anchor !== undefined && unitHash(seed, 'insert-after', context.promptHash, failureClass) < 0.3)
    return { op: 'insert_after', target: anchor, content, rationale };
  return { op: 'append', content, rationale };
}

function reflectOnFailures(context: StageContext): Record<string, unknown> {
  const { prompt, settings, promptHash } = context;
  const skill = currentSkillOf(prompt, 'reflect-failure');
  const maxEdits = Number(/Propose at most (\d+) edits/.exec(prompt)?.[1] ?? 3);
  const trajectories = readTrajectories(sectionBetween(prompt, '## Failed trajectories', ['## Your reply']) ?? '');
  const counts = classCounts(trajectories);
  const effects = readSkillRules(skill);
  const edits: ProposedEdit[] = [];
  const editClasses: Array<HarmKind | 'useless' | 'over-specific'> = [];
  const lapses: HarmKind[] = [];
  // On Sleep's tasks a rule to ignore the requested format causes every habit the trajectories show.
  const sleepTasks = trajectories.some(isSleepTrajectory);
  const replaced = new Set<string>();
  const sleepHarms: HarmKind[] = sleepTasks ? [SLEEP_FORMAT_HARM] : [];
  for (const [found, count] of counts) {
    if (found === SLEEP_FORMAT_HARM) continue; // a cause, never a diagnosis
    const causes = new Set<HarmKind>([found, ...sleepHarms]);
    const harmed = [...causes].some((cause) => effects.harms.has(cause));
    const badLines = harmed ? harmfulLines(skill, causes).filter((line) => occurrences(skill, line) === 1 && !replaced.has(line)) : [];
    const badLine = badLines[0];
    if (badLine !== undefined) {
      // The skill itself asks for the failure: replace (or drop) the rule that causes it.
      if (found === 'truncation')
        edits.push({ op: 'delete', target: badLine, rationale: `This rule causes ${CLASS_DESCRIPTIONS.truncation} (${count} failed trajectories).` });
      else
        edits.push({
          op: 'replace',
          target: badLine,
          content: `${bulletStyle(skill)}${pick(GOOD_RULE_PHRASINGS[found], settings.seed, 'phrasing', promptHash, found)}`,
          rationale: `The current rule causes ${CLASS_DESCRIPTIONS[found]} (${count} failed trajectories); replace it with the opposite rule.`,
        });
      editClasses.push(found);
      replaced.add(badLine);
      continue;
    }
    if (settings.world !== undefined) {
      const proposal = proposeConcept(settings.world, settings.seed, promptHash, skill, found);
      if (proposal.kind === 'lapse') lapses.push(found);
      if (proposal.kind !== 'rule') continue;
      const content = `${bulletStyle(skill)}${proposal.rule}`;
      const rationale = `Prevents ${CLASS_DESCRIPTIONS[found]} (seen in ${count} failed trajectories).`;
      edits.push(proposal.replaces === undefined ? { op: 'append', content, rationale } : { op: 'replace', target: proposal.replaces, content, rationale });
      editClasses.push(found);
      continue;
    }
    if (found === 'truncation') continue;
    if (effects.fixes.has(found)) {
      lapses.push(found);
      continue;
    }
    edits.push(ruleEdit(context, skill, found, count));
    editClasses.push(found);
  }
  if (unitHash(settings.seed, 'harmful', promptHash) < settings.harmfulRuleRate) {
    // On Sleep's tasks the rule to ignore the requested format is one more plausible misdiagnosis.
    const candidates: HarmKind[] = [...counts.map(([found]) => found), ...sleepHarms];
    // With no class seen, a misdiagnosis still fits the kind of task the trajectories show.
    const pool = trajectories.some(isSpreadsheetTrajectory)
      ? SPREADSHEET_FAILURE_CLASSES
      : trajectories.some(isAlfworldTrajectory)
        ? ALFWORLD_FAILURE_CLASSES
        : ANSWER_HARM_KINDS;
    const kind = pick(candidates.length > 0 ? candidates : pool, settings.seed, 'harm-kind', promptHash);
    const harmful: ProposedEdit = {
      op: 'append',
      content: `${bulletStyle(skill)}${pick(HARMFUL_RULE_PHRASINGS[kind], settings.seed, 'harm-phrasing', promptHash)}`,
      rationale: `Several answers were judged wrong on their form; this makes the expected form explicit.`,
    };
    const at = editClasses.indexOf(kind);
    if (at >= 0 && edits[at]?.op !== 'replace' && edits[at]?.op !== 'delete')
      edits[at] = harmful; // a misdiagnosis of that failure
    else {
      edits.unshift(harmful);
      editClasses.unshift(kind);
    }
  }
  const overSpecific = settings.world === undefined ? undefined : proposeOverSpecificRule(settings.world, settings.seed, promptHash, trajectories);
  if (overSpecific !== undefined) {
    edits.unshift({ op: 'append', content: `${bulletStyle(skill)}${overSpecific}`, rationale: 'This exact question failed; state its answer outright.' });
    editClasses.unshift('over-specific');
  }
  if (unitHash(settings.seed, 'useless', promptHash) < settings.uselessRuleRate) {
    const useless: ProposedEdit = {
      op: 'append',
      content: `${bulletStyle(skill)}${pick(USELESS_RULE_PHRASINGS, settings.seed, 'useless-phrasing', promptHash)}`,
      rationale: 'Several answers were wrong; more care should help.',
    };
    const at = Math.floor(unitHash(settings.seed, 'useless-position', promptHash) * Math.min(edits.length + 1, maxEdits));
    edits.splice(at, 0, useless);
    editClasses.splice(at, 0, 'useless');
  }
  const causes = counts.map(([found, count]) => `${CLASS_DESCRIPTIONS[found]} (${count})`);
  const reply: Record<string, unknown> = {
    reasoning:
      `${context.label}: read ${trajectories.length} failed trajectories. ` +
      (causes.length > 0 ? `Shared causes: ${causes.join('; ')}.` : 'No shared procedural cause: the failures look like one-off factual mistakes.'),
    edits: withoutRejected(prompt, edits).slice(0, maxEdits),
  };
  if (/"appendixNotes"/.test(prompt))
    reply.appendixNotes = lapses.map((lapse) => `Follow the existing rule about ${CLASS_DESCRIPTIONS[lapse]}: it was ignored.`);
  return reply;
}

/**
 * Edits the prompt lists as already tried and rejected are not proposed again, as the prompt asks
 * (a real model mostly complies): the rule's text, without its bullet, is looked for in that section.
 */
function withoutRejected(prompt: string, edits: readonly ProposedEdit[]): ProposedEdit[] {
  const rejected = sectionBetween(prompt, '## Edits already tried and rejected', ['## ']) ?? '';
  if (rejected === '') return [...edits];
  return edits.filter((edit) => {
    const rule = (edit.content ?? '').replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').trim();
    return rule === '' || !rejected.includes(rule);
  });
}

function reflectOnSuccesses(context: StageContext): Record<string, unknown> {
  const { prompt, settings, promptHash } = context;
  const skill = currentSkillOf(prompt, 'reflect-success');
  const trajectories = readTrajectories(sectionBetween(prompt, '## Successful trajectories', ['## Your reply']) ?? '');
  const edits: ProposedEdit[] = [];
  if (unitHash(settings.seed, 'useless', promptHash) < settings.uselessRuleRate) {
    edits.push({
      op: 'append',
      content: `${bulletStyle(skill)}${pick(USELESS_RULE_PHRASINGS, settings.seed, 'useless-phrasing', promptHash)}`,
      rationale: 'The successful runs were careful; say so.',
    });
  }
  const reply: Record<string, unknown> = {
    reasoning: `${context.label}: read ${trajectories.length} successful trajectories; they follow the existing rules, so ${edits.length === 0 ? 'nothing needs adding' : 'only a general reminder is proposed'}.`,
    edits,
  };
  if (/"appendixNotes"/.test(prompt)) reply.appendixNotes = [];
  return reply;
}

/** The class key an edit's text belongs to (what it fixes or harms), or its own text when none. */
function editKey(edit: { content?: string }): string {
  const effects = readSkillRules(edit.content ?? '');
  const keys = [...[...effects.fixes].map((found) => `fix:${found}`), ...[...effects.harms].map((harm) => `harm:${harm}`)].sort();
  return keys.length > 0 ? keys.join('+') : `text:${(edit.content ?? '').toLowerCase().replace(/\W+/g, ' ').trim()}`;
}

function proposedFrom(edit: NumberedEdit): ProposedEdit {
  const proposed: ProposedEdit = {
    op: (['append', 'insert_after', 'replace', 'delete'].includes(edit.op) ? edit.op : 'append') as ProposedEdit['op'],
    rationale: edit.rationale ?? '',
  };
  if (proposed.op !== 'append' && edit.target !== undefined) proposed.target = edit.target;
  if (proposed.op !== 'delete' && edit.content !== undefined) proposed.content = edit.content;
  return proposed;
}

function mergeEdits(context: StageContext): Record<string, unknown> {
  const edits = readNumberedEdits(sectionBetween(context.prompt, '## Proposed edits', ['## Your reply']) ?? '');
  const groups = new Map<string, NumberedEdit[]>();
  for (const edit of edits) {
    // Edits anchored on the same text change the same part of the skill: one of them survives.
    const key = edit.op === 'replace' || edit.op === 'delete' ? `target:${edit.target ?? ''}` : `add:${editKey(edit)}`;
    groups.set(key, [...(groups.get(key) ?? []), edit]);
  }
  const merged = [...groups.values()].map((group) => {
    const best = [...group].sort((left, right) => preferFailure(left, right) || right.support - left.support || left.number - right.number)[0] as NumberedEdit;
    return { ...proposedFrom(best), mergedFrom: group.map((edit) => edit.number) };
  });
  const dropped = edits.length - merged.length;
  return {
    reasoning: `${context.label}: ${edits.length} input edits; merged ${dropped} duplicates by the failure they address, keeping the best-supported wording of each.`,
    edits: merged,
  };
}

function preferFailure(left: NumberedEdit, right: NumberedEdit): number {
  const rank = (edit: NumberedEdit): number =>
    edit.origin === undefined ? 1 : edit.origin.startsWith('failed and') ? 1 : edit.origin.startsWith('failed') ? 0 : 2;
  return rank(left) - rank(right);
}

function rankEdits(context: StageContext): Record<string, unknown> {
  const { prompt } = context;
  const edits = readNumberedEdits(sectionBetween(prompt, '## Proposed edits', ['## Your reply']) ?? '');
  const budget = Number(/Only (\d+) of the/.exec(prompt)?.[1] ?? /at most (\d+) edit numbers/.exec(prompt)?.[1] ?? 1);
  const addressesFailure = (edit: NumberedEdit): number => (editKey(edit).startsWith('text:') ? 1 : 0);
  const ordered = [...edits].sort(
    (left, right) => right.support - left.support || addressesFailure(left) - addressesFailure(right) || left.number - right.number,
  );
  const selected = ordered.slice(0, Math.max(1, budget)).map((edit) => edit.number);
  return {
    reasoning: `${context.label}: ranked ${edits.length} edits by support, preferring ones that name a concrete failure; kept ${selected.length}.`,
    selected: selected.length > 0 ? selected : [1],
  };
}

function decideLearningRate(context: StageContext): Record<string, unknown> {
  const { prompt } = context;
  const range = /whole number from (\d+) to (\d+)/.exec(prompt);
  const minimum = Number(range?.[1] ?? 1);
  const maximum = Number(range?.[2] ?? Math.max(minimum, 4));
  const editCount = Number(/## Proposed edits \((\d+)\)/.exec(prompt)?.[1] ?? readNumberedEdits(prompt).length);
  const learningRate = Math.min(maximum, Math.max(minimum, Math.ceil(editCount / 2) + 1));
  return {
    reasoning: `${context.label}: ${editCount} proposed edits; applying about half of them balances speed against the risk of breaking what works.`,
    learningRate,
  };
}

/** Applies edits as a careful rewriter would: anchored edits where the anchor is found, appends at the end. */
function applyAsRewrite(skill: string, edits: readonly ProposedEdit[]): { skill: string; summary: string[] } {
  let text = skill.replace(/\s+$/, '');
  const summary: string[] = [];
  for (const edit of edits) {
    const content = edit.content?.replace(/<!--[\s\S]*?-->/g, '').trim();
    if (edit.op === 'append' && content) {
      text = `${text}\n${content}`;
      summary.push(`Added: ${content}`);
    } else if (edit.op === 'insert_after' && content && edit.target !== undefined && text.includes(edit.target)) {
      const at = text.indexOf(edit.target) + edit.target.length;
      const lineEnd = text.indexOf('\n', at);
      text = lineEnd < 0 ? `${text}\n${content}` : `${text.slice(0, lineEnd)}\n${content}${text.slice(lineEnd)}`;
      summary.push(`Added after "${edit.target.slice(0, 40)}": ${content}`);
    } else if (edit.op === 'insert_after' && content) {
      text = `${text}\n${content}`;
      summary.push(`Added: ${content}`);
    } else if (edit.op === 'replace' && content && edit.target !== undefined && text.includes(edit.target)) {
      text = text.replace(edit.target, content);
      summary.push(`Replaced "${edit.target.slice(0, 40)}" with: ${content}`);
    } else if (edit.op === 'delete' && edit.target !== undefined && text.includes(edit.target)) {
      text = text.replace(edit.target, '').replace(/\n{3,}/g, '\n\n');
      summary.push(`Removed: ${edit.target}`);
    }
  }
  return { skill: `${text.replace(/\s+$/, '')}\n`, summary };
}

function rewriteFromSuggestions(context: StageContext): Record<string, unknown> {
  const { prompt } = context;
  const skill = currentSkillOf(prompt, 'rewrite-from-suggestions');
  const edits = readNumberedEdits(sectionBetween(prompt, '## Selected suggestions', ['## Your reply']) ?? '').map(proposedFrom);
  const rewritten = applyAsRewrite(skill, edits);
  return {
    reasoning: `${context.label}: applied the ${edits.length} selected suggestions in priority order.`,
    changeSummary: rewritten.summary.length > 0 ? rewritten.summary : ['No change: the suggestions were already covered.'],
    newSkill: rewritten.skill.trim() === '' ? '# Skill\n' : rewritten.skill,
  };
}

function fullRewrite(context: StageContext): Record<string, unknown> {
  const { prompt, settings, promptHash } = context;
  const skill = currentSkillOf(prompt, 'full-rewrite');
  const trajectories = readTrajectories(sectionBetween(prompt, '## Trajectories', ['## Your reply']) ?? '').filter((trajectory) => trajectory.hard < 1);
  const counts = classCounts(trajectories);
  const found = new Set(counts.map(([kind]) => kind));
  // On Sleep's tasks a rule to ignore the requested format causes whatever habit shows: it goes too.
  const causes = new Set<HarmKind>(found);
  if (found.size > 0 && trajectories.some(isSleepTrajectory)) causes.add(SLEEP_FORMAT_HARM);
  const badLines = new Set(harmfulLines(skill, causes));
  const kept = skill.split('\n').filter((line) => !badLines.has(line));
  const effects = readSkillRules(kept.join('\n'));
  const added = FAILURE_CLASSES.filter((failureClass) => found.has(failureClass) && !effects.fixes.has(failureClass)).map(
    (failureClass) => `- ${pick(GOOD_RULE_PHRASINGS[failureClass], settings.seed, 'phrasing', promptHash, failureClass)}`,
  );
  let newSkill = kept.join('\n').replace(/\s+$/, '');
  if (added.length > 0) newSkill = `${newSkill}\n\n## Answer format\n${added.join('\n')}`;
  if (newSkill.trim() === '') newSkill = '# Skill';
  return {
    reasoning: `${context.label}: ${trajectories.length} failed trajectories; causes addressed: ${counts.map(([kind]) => CLASS_DESCRIPTIONS[kind]).join('; ') || 'none'}.`,
    changeSummary: [...[...badLines].map((line) => `Removed: ${line.trim()}`), ...added.map((line) => `Added: ${line.slice(2)}`)],
    newSkill: `${newSkill}\n`,
  };
}

function comparisonFailures(prompt: string): ReadTrajectory[] {
  const comparison = sectionBetween(prompt, '## Comparison on the same tasks', ['## Your reply']) ?? '';
  return readTrajectories(comparison).filter((trajectory) => /current/i.test(trajectory.label) && trajectory.hard < 1);
}

function slowUpdate(context: StageContext): Record<string, unknown> {
  const { prompt, settings, promptHash } = context;
  const failures = comparisonFailures(prompt);
  const counts = classCounts(failures).filter(([kind]) => kind !== 'truncation') as Array<[FailureClass, number]>;
  const lines = counts.map(([failureClass]) => `- ${pick(GOOD_RULE_PHRASINGS[failureClass], settings.seed, 'slow-phrasing', promptHash, failureClass)}`);
  return {
    reasoning: `${context.label}: ${failures.length} tasks still fail with the current skill; their shared causes become guidance.`,
    guidance: lines.length > 0 ? lines.join('\n') : '- Keep following the answer-format rules above: they are working.',
  };
}

function metaSkill(context: StageContext): Record<string, unknown> {
  const { prompt } = context;
  const counts = ['regressed', 'persistent-failure', 'improved', 'stable-success'].map(
    (category) => `${category} ${new RegExp(`^- ${category}: (\\d+)`, 'm').exec(prompt)?.[1] ?? '?'}`,
  );
  const remaining = classCounts(comparisonFailures(prompt)).map(([kind]) => CLASS_DESCRIPTIONS[kind]);
  return {
    reasoning: `${context.label}: compared the two epochs' skills on the same tasks (${counts.join(', ')}).`,
    metaSkill: [
      '- (Notes written by a simulated optimizer.)',
      '- Concrete answer-format rules (tags, digits, dates, units, names) helped; vague reminders changed nothing.',
      '- Rules asking for sentences, explanations, units or full names in the answer caused regressions.',
      remaining.length > 0 ? `- Still unsolved: ${remaining.join('; ')}.` : '- No procedural failure remains unsolved.',
    ].join('\n'),
  };
}

function consolidateNotes(context: StageContext): Record<string, unknown> {
  const section = sectionBetween(context.prompt, '## Notes', ['## Your reply']) ?? '';
  const notes = [...section.matchAll(/^\s*\d+\.\s+(.*)$/gm)].map((match) => (match[1] as string).trim()).filter((note) => note !== '');
  const groups = new Map<string, string[]>();
  for (const note of notes) {
    const key = editKey({ content: note });
    groups.set(key, [...(groups.get(key) ?? []), note]);
  }
  let kept = [...groups.values()].map((group) => [...group].sort((left, right) => left.length - right.length)[0] as string);
  if (kept.length >= notes.length && kept.length >= 2) {
    const last = kept.pop() as string;
    const previous = kept.pop() as string;
    kept = [...kept, `${previous.replace(/[.\s]+$/, '')}; ${last.charAt(0).toLowerCase()}${last.slice(1)}`];
  }
  return { notes: kept.length > 0 ? kept : notes.slice(0, 1) };
}
