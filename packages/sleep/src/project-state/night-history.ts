import path from 'node:path';
import { createJsonLinesAppender, readJsonLinesFile } from '@skillopt/core';
import { z } from 'zod';
import { SOURCE_IDS } from '../harvest/session-record.js';

/** One line per night in `<project state>/nights.jsonl`, appended when the night ends. */
export const NIGHTS_FILE = 'nights.jsonl';

export const NIGHT_OUTCOMES = ['accepted', 'rejected', 'refused', 'budget-spent', 'no-tasks', 'failed'] as const;
export type NightOutcome = (typeof NIGHT_OUTCOMES)[number];

const skillNightSchema = z.object({
  skill: z.string(),
  documentPath: z.string(),
  outcome: z.enum(['accepted', 'rejected', 'refused', 'budget-spent', 'skipped']),
  validation: z.object({ before: z.number().nullable(), after: z.number().nullable() }).optional(),
  /** The staged proposal's folder; null when nothing was staged for this skill. */
  staging: z.string().nullable(),
  /** Why it ended as it did, when the outcome alone does not say (refusal, budget, a skill not found). */
  reason: z.string().optional(),
});

const nightRecordSchema = z.object({
  night: z.int().positive(),
  nightId: z.string().min(1),
  project: z.string(),
  startedAt: z.string(),
  endedAt: z.string(),
  outcome: z.enum(NIGHT_OUTCOMES),
  tasks: z.int().nonnegative(),
  /** Each skill the night learned for, the night's own document first. */
  skills: z.array(skillNightSchema),
  /** Set when the night harvested sessions itself (no task file): the sources read and the sessions found. */
  harvest: z.object({ sources: z.array(z.enum(SOURCE_IDS)), sessions: z.int().nonnegative() }).nullable(),
  checkpointAdvanced: z.boolean(),
  /** Why a night failed. */
  reason: z.string().optional(),
  calls: z.int().nonnegative().optional(),
  costUsd: z.number().optional(),
});
export type NightRecord = z.infer<typeof nightRecordSchema>;

function nightsFile(projectStateDirectory: string): string {
  return path.join(projectStateDirectory, NIGHTS_FILE);
}

/**
 * The nights of one project, oldest first. A line torn by a kill, or one this release cannot read,
 * is passed over: the history informs `status` and numbers the next night, it decides nothing.
 */
export async function readNightHistory(projectStateDirectory: string): Promise<NightRecord[]> {
  const content = await readJsonLinesFile(nightsFile(projectStateDirectory), {
    accept: (value) => {
      const parsed = nightRecordSchema.safeParse(value);
      return parsed.success ? { ok: true, record: parsed.data } : { ok: false, reason: parsed.error.message };
    },
  });
  return content.records;
}

/** Appends one night to the history; the caller holds the project's state lock. */
export async function appendNightRecord(projectStateDirectory: string, record: NightRecord): Promise<void> {
  const appender = createJsonLinesAppender(nightsFile(projectStateDirectory));
  try {
    await appender.append(nightRecordSchema.parse(record));
  } finally {
    await appender.close();
  }
}
