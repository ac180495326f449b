import { type ChatModel, EMPTY_USAGE } from '@skillopt/contract';
import { z } from 'zod';
import { appendixNoteKey, cleanAppendixNote, deduplicateAppendixNotes } from './appendix-notes.js';
import { invalidOption } from '@skillopt/runtime-kit';
import { hasProtectedBlock, readProtectedBlock, writeProtectedBlock } from './protected-blocks.js';
import { renderStagePrompt } from './prompt-templates.js';
import { repairedRepliesField, type StageResult } from './stage-result.js';
import { requestStructuredReply } from './structured-reply.js';

/**
 * The skill-aware reflection appendix: short reminders of rules the agent has but did not follow
 * (execution lapses), kept in the APPENDIX protected block so ordinary edits cannot touch them.
 */
export const APPENDIX_HEADING = '## Execution notes';

/** The notes in the skill's appendix block, in order ([] when there is no block). */
export function readAppendixNotes(skill: string): string[] {
  const notes: string[] = [];
  for (const line of readProtectedBlock(skill, 'appendix').split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || /^#+\s/.test(trimmed)) continue;
    const note = cleanAppendixNote(trimmed);
    if (note !== undefined) notes.push(note);
  }
  return notes;
}

/** Replaces the appendix notes (the block is created at the end of the skill if absent). */
export function writeAppendixNotes(skill: string, notes: readonly string[]): string {
  const lines = [APPENDIX_HEADING, ...deduplicateAppendixNotes(notes).map((note) => `- ${note}`)];
  return writeProtectedBlock(skill, 'appendix', lines.join('\n'));
}

/** Adds an empty appendix block when there is none (skill-aware reflection switched on). */
export function ensureAppendixBlock(skill: string): string {
  return hasProtectedBlock(skill, 'appendix') ? skill : writeAppendixNotes(skill, []);
}

/**
 * Routes analysts' notes into the appendix: new notes are cleaned, deduplicated against each other
 * and the existing ones (case, spacing and trailing punctuation ignored) and added after them.
 */
export function addAppendixNotes(skill: string, notes: readonly string[]): { skill: string; added: string[] } {
  const existing = readAppendixNotes(skill);
  const existingKeys = new Set(existing.map(appendixNoteKey));
  const added = deduplicateAppendixNotes(notes).filter((note) => !existingKeys.has(appendixNoteKey(note)));
  if (added.length === 0) return { skill, added };
  return { skill: writeAppendixNotes(skill, [...existing, ...added]), added };
}

export interface AppendixConsolidationOptions {
  model: ChatModel;
  signal: AbortSignal;
  skill: string;
  /** Consolidate when the appendix holds more notes than this; 0 switches consolidation off. */
  threshold: number;
  maxOutputTokens?: number;
}

export interface AppendixConsolidation {
  skill: string;
  notes: string[];
  /** False when no call was needed (at or under the threshold, or switched off). */
  consolidated: boolean;
}

/**
 * Compacts the appendix with one optimizer call (`purpose: 'appendix-consolidate'`) once it holds
 * more than `threshold` notes. The reply must be a non-empty list shorter than the input; anything
 * else is re-asked once and then reported as a stage failure (the appendix stays as it was).
 */
export async function consolidateAppendix(options: AppendixConsolidationOptions): Promise<StageResult<AppendixConsolidation>> {
  if (!Number.isInteger(options.threshold) || options.threshold < 0) {
    throw invalidOption(`the appendix consolidation threshold must be a whole number of at least 0, got ${options.threshold}`);
  }
  const notes = readAppendixNotes(options.skill);
  if (options.threshold === 0 || notes.length <= options.threshold || notes.length < 2) {
    return { ok: true, value: { skill: options.skill, notes, consolidated: false }, attempts: 0, usage: EMPTY_USAGE };
  }
  const schema = z.object({
    notes: z
      .array(z.string())
      .transform((list) => deduplicateAppendixNotes(list))
      .refine((list) => list.length >= 1 && list.length < notes.length, {
        message: `return between 1 and ${notes.length - 1} distinct, non-empty notes`,
      }),
  });
  const reply = await requestStructuredReply({
    model: options.model,
    signal: options.signal,
    prompt: 'appendix-consolidate',
    messages: [
      {
        role: 'user',
        content: renderStagePrompt('appendix-consolidate', {
          noteCount: String(notes.length),
          notes: notes.map((note, index) => `${index + 1}. ${note}`).join('\n'),
        }),
      },
    ],
    schema,
    maxOutputTokens: options.maxOutputTokens ?? 4_096,
  });
  if (!reply.ok) return reply;
  const consolidatedNotes = reply.value.value.notes;
  return {
    ok: true,
    value: { skill: writeAppendixNotes(options.skill, consolidatedNotes), notes: consolidatedNotes, consolidated: true },
    attempts: reply.attempts,
    usage: reply.usage,
    ...repairedRepliesField(reply.repairedReplies),
  };
}
