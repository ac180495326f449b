/**
 * The optimizer's prompts, rendered by hand in these tests from the documented templates
 * (packages/optimizer/src/prompts/*.md) and trajectory format (trajectory-rendering.ts). The
 * backend may not import @skillopt/optimizer, so the lead should add an end-to-end test in core
 * that drives this package with the real optimizer.
 */

export interface TestTrajectory {
  id: string;
  hard: number;
  soft: number;
  prediction: string;
  reference?: string;
  turns?: Array<{ role: string; content: string }>;
}

export interface TestEdit {
  op: string;
  target?: string;
  content?: string;
  rationale?: string;
  support: number;
  source?: 'failure' | 'success' | 'mixed';
}

export function renderTrajectory(trajectory: TestTrajectory, number: number): string {
  const lines = [`### Trajectory ${number} (id=${trajectory.id}, task type=qa, hard=${trajectory.hard}, soft=${trajectory.soft})`];
  lines.push(`Final answer: ${trajectory.prediction}`);
  if (trajectory.reference !== undefined) lines.push(`Reference answer: ${trajectory.reference}`);
  const turns = trajectory.turns ?? [];
  if (turns.length > 0) {
    lines.push(`Turns (${turns.length}):`);
    for (const turn of turns) lines.push(`[${turn.role}] ${turn.content}`);
  } else lines.push('Turns: none recorded');
  return lines.join('\n');
}

export function renderTrajectories(trajectories: readonly TestTrajectory[]): string {
  return trajectories.map((trajectory, index) => renderTrajectory(trajectory, index + 1)).join('\n\n---\n\n');
}

export function renderEdits(edits: readonly TestEdit[]): string {
  return edits
    .map((edit, index) => {
      const origin =
        edit.source === undefined
          ? ''
          : `, from ${edit.source === 'failure' ? 'failed' : edit.source === 'success' ? 'successful' : 'failed and successful'} trajectories`;
      const json = JSON.stringify({
        op: edit.op,
        ...(edit.target === undefined ? {} : { target: edit.target }),
        ...(edit.content === undefined ? {} : { content: edit.content }),
        ...(edit.rationale ? { rationale: edit.rationale } : {}),
      });
      return `[${index + 1}] (support ${edit.support}${origin}) ${json}`;
    })
    .join('\n');
}

export function reflectFailurePrompt(skill: string, trajectories: readonly TestTrajectory[], maxEdits = 4, withAppendix = false): string {
  return `You improve a skill document: the instructions a fixed AI agent reads before every task. You cannot change the agent, only the document. Below are the current skill and ${trajectories.length} trajectories in which the agent FAILED.

Work like this:
1. Read every trajectory and find the failures that share a cause. Ignore one-off accidents.
2. For each shared cause, decide what the skill is missing or gets wrong: a missing step, an unclear rule, a wrong habit, a format requirement nobody stated.
3. Propose at most ${maxEdits} edits that would prevent those failures on NEW tasks of the same kind. A good edit states a general procedure or check; it never copies answers, names, numbers or identifiers from these particular tasks.
4. Prefer sharpening or replacing an existing rule over adding a near-duplicate. Keep the skill short.

Edit operations:
- \`append\`: add \`content\` at the end of the skill's body. No \`target\`.
- \`insert_after\`: add \`content\` on the line after the line that contains \`target\`.
- \`replace\`: replace the text \`target\` with \`content\`.
- \`delete\`: remove the text \`target\`.

A \`target\` must be copied exactly, character for character, from the current skill and must occur there exactly once; include enough of the line to make it unique. Never target or reproduce the blocks between \`<!-- ... -->\` markers: they are maintained separately and edits touching them are refused.
${withAppendix ? '\nSome failures happen although the skill already has the right rule and the agent simply did not follow it. Do not edit the skill for those: add a one-line reminder that points at the existing rule to `appendixNotes` instead.\n' : ''}
## Current skill

${skill}

## Failed trajectories (${trajectories.length})

${renderTrajectories(trajectories)}

## Your reply

Reply with one JSON object and nothing else:

{"reasoning": "<the shared failure causes you found, briefly>", "edits": [{"op": "append|insert_after|replace|delete", "target": "<exact text from the skill; omit for append>", "content": "<new text; omit for delete>", "rationale": "<which failures this prevents and why>"}]${withAppendix ? ', "appendixNotes": ["<one-line reminder of an existing rule>"]' : ''}}

If no change would help, reply with an empty \`edits\` list.`;
}

export function reflectSuccessPrompt(skill: string, trajectories: readonly TestTrajectory[]): string {
  return `You improve a skill document: the instructions a fixed AI agent reads before every task. You cannot change the agent, only the document. Below are the current skill and ${trajectories.length} trajectories in which the agent SUCCEEDED.

## Current skill

${skill}

## Successful trajectories (${trajectories.length})

${renderTrajectories(trajectories)}

## Your reply

Reply with one JSON object and nothing else:

{"reasoning": "<the success patterns you found, briefly>", "edits": [{"op": "append|insert_after|replace|delete", "target": "<exact text from the skill; omit for append>", "content": "<new text; omit for delete>", "rationale": "<which pattern this encodes>"}]}

If nothing is worth adding, reply with an empty \`edits\` list.`;
}

export function mergePrompt(skill: string, edits: readonly TestEdit[], groupCount = 2): string {
  return `You consolidate proposed edits to a skill document (the instructions a fixed AI agent reads). Several analysts each studied different trajectories and proposed edits independently, so their proposals overlap and sometimes conflict. Produce ONE coherent list of edits.

Rules:
- Merge edits that say the same thing into one edit, worded as generally as the evidence allows.
- For every edit you produce, list in \`mergedFrom\` the numbers of ALL input edits it covers.

## Current skill

${skill}

## Proposed edits (${edits.length}, from ${groupCount} analysts or earlier merges)

${renderEdits(edits)}

## Your reply

Reply with one JSON object and nothing else:

{"reasoning": "<what you merged, dropped and why>", "edits": [{"op": "append|insert_after|replace|delete", "target": "<exact text; omit for append>", "content": "<omit for delete>", "rationale": "<why>", "mergedFrom": [<numbers of the input edits>]}]}`;
}

export function rankPrompt(skill: string, edits: readonly TestEdit[], budget: number): string {
  return `You choose which proposed edits to a skill document (the instructions a fixed AI agent reads) are applied in this step. Only ${budget} of the ${edits.length} edits below may be applied; applying fewer, better edits is how the skill stays reliable.

## Current skill

${skill}

## Proposed edits

${renderEdits(edits)}

## Your reply

Reply with one JSON object and nothing else, listing at most ${budget} edit numbers, most important first:

{"reasoning": "<why these>", "selected": [<edit numbers>]}`;
}

export function lrDecidePrompt(skill: string, edits: readonly TestEdit[], minimum: number, maximum: number): string {
  return `You decide how many of the proposed edits below should be applied to a skill document (the instructions a fixed AI agent reads) in this step.

The number must be a whole number from ${minimum} to ${maximum}.

## Current skill

${skill}

## Evidence from this step

- scored trajectories: 8
- mean pass mark (hard): 0.250
- mean graded score (soft): 0.500

## Proposed edits (${edits.length})

${renderEdits(edits)}

## Your reply

Reply with one JSON object and nothing else:

{"reasoning": "<why this many>", "learningRate": <whole number from ${minimum} to ${maximum}>}`;
}

export function rewriteFromSuggestionsPrompt(skill: string, edits: readonly TestEdit[]): string {
  return `You rewrite a skill document: the instructions a fixed AI agent reads before every task. Apply the selected suggestions below to the current skill and return the whole new document.

## Current skill

${skill}

## Selected suggestions (${edits.length}, in priority order)

${renderEdits(edits)}

## Your reply

Reply with one JSON object and nothing else; \`newSkill\` is the complete new document as markdown:

{"reasoning": "<how you applied the suggestions>", "changeSummary": ["<one line per change>"], "newSkill": "<the whole rewritten skill>"}`;
}

export function fullRewritePrompt(skill: string, trajectories: readonly TestTrajectory[]): string {
  return `You rewrite a skill document: the instructions a fixed AI agent reads before every task. Below are the current skill and ${trajectories.length} scored trajectories of the agent using it. Write the improved skill in full.

## Current skill

${skill}

## Trajectories (${trajectories.length})

${renderTrajectories(trajectories)}

## Your reply

Reply with one JSON object and nothing else; \`newSkill\` is the complete new document as markdown:

{"reasoning": "<the causes you addressed>", "changeSummary": ["<one line per change>"], "newSkill": "<the whole rewritten skill>"}`;
}

function comparison(pairs: ReadonlyArray<{ previous: TestTrajectory; current: TestTrajectory }>): string {
  const lines = [
    `Tasks compared: ${pairs.length}`,
    `- regressed: 0`,
    `- persistent-failure: ${pairs.length}`,
    `- improved: 0`,
    `- stable-success: 0`,
    '',
    `### Persistent failures: fail with both skills (${pairs.length})`,
  ];
  for (const pair of pairs) {
    lines.push(
      '',
      `#### Task ${pair.current.id}`,
      'With the previous skill:',
      renderTrajectory(pair.previous, 1),
      'With the current skill:',
      renderTrajectory(pair.current, 2),
    );
  }
  return lines.join('\n');
}

export function slowUpdatePrompt(
  previousSkill: string,
  currentSkill: string,
  pairs: ReadonlyArray<{ previous: TestTrajectory; current: TestTrajectory }>,
): string {
  return `You write the slow-update guidance of a skill document: a short block of direct instructions for the AI agent that reads the skill, distilled from how the skill changed over a whole training epoch.

## Previous epoch's skill

${previousSkill}

## Current epoch's skill

${currentSkill}

## Previous slow-update guidance

(none yet)

## Comparison on the same tasks

${comparison(pairs)}

## Your reply

Reply with one JSON object and nothing else:

{"reasoning": "<what the comparison shows>", "guidance": "<the new guidance, markdown>"}`;
}

export function metaSkillPrompt(
  previousSkill: string,
  currentSkill: string,
  pairs: ReadonlyArray<{ previous: TestTrajectory; current: TestTrajectory }>,
): string {
  return `You keep the optimizer's strategy notes: a memory, carried across training epochs, of which kinds of edits to a skill document helped the AI agent and which hurt.

## Previous epoch's final skill

${previousSkill}

## This epoch's final skill

${currentSkill}

## Previous strategy notes

(none yet)

## Comparison on the same tasks

${comparison(pairs)}

## Your reply

Reply with one JSON object and nothing else:

{"reasoning": "<what the comparison shows>", "metaSkill": "<the updated strategy notes, markdown>"}`;
}

export function appendixConsolidatePrompt(notes: readonly string[]): string {
  return `You tidy the execution-notes appendix of a skill document. Each note is a short reminder for the AI agent of a rule it already has but sometimes fails to follow. The list has grown to ${notes.length} notes and needs to be compacted.

## Notes

${notes.map((note, index) => `${index + 1}. ${note}`).join('\n')}

## Your reply

Reply with one JSON object and nothing else:

{"notes": ["<note>", "..."]}`;
}
