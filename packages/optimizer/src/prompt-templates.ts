import appendixConsolidate from './prompts/appendix-consolidate.md';
import fullRewrite from './prompts/full-rewrite.md';
import learningRateDecision from './prompts/lr-decide.md';
import merge from './prompts/merge.md';
import metaSkill from './prompts/meta-skill.md';
import rank from './prompts/rank.md';
import reflectFailure from './prompts/reflect-failure.md';
import reflectSuccess from './prompts/reflect-success.md';
import rewriteFromSuggestions from './prompts/rewrite-from-suggestions.md';
import slowUpdate from './prompts/slow-update.md';
import type { OptimizerPrompt } from '@skillopt/contract';
import { renderTemplate } from './template-renderer.js';

/** Every prompt template of the optimizer, embedded in the bundle as markdown text. */
export const PROMPT_TEMPLATES: Readonly<Record<OptimizerPrompt, string>> = {
  'reflect-failure': reflectFailure,
  'reflect-success': reflectSuccess,
  merge,
  rank,
  'lr-decide': learningRateDecision,
  'rewrite-from-suggestions': rewriteFromSuggestions,
  'full-rewrite': fullRewrite,
  'slow-update': slowUpdate,
  'meta-skill': metaSkill,
  'appendix-consolidate': appendixConsolidate,
};

/** The user message of a stage's call: its template with every placeholder filled. */
export function renderStagePrompt(prompt: OptimizerPrompt, values: Readonly<Record<string, string>>): string {
  return renderTemplate(PROMPT_TEMPLATES[prompt], values);
}
