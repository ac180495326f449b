import { tolerantSchema, usageSchema } from '@skillopt/contract';
import { z } from 'zod';
import { readJsonLinesFile, type MalformedLine } from '../run-store/json-lines-file.js';
import { ledgerEntrySchema, type LedgerEntry } from './ledger-entry.js';

/**
 * ledger.jsonl: every model call of a run, appended as it happens, never rewritten. A paid call
 * writes two lines: `call-started` before the request leaves the process (with the role, purpose,
 * model and a usage estimate from the prompt), and `call-finished` when it returns or fails. A
 * call avoided by a cache is one `call-recorded` line. So a run killed at any instant leaves a
 * line for every request a provider may have received: a start without its finish reads back as
 * an `incomplete` entry, which budgets count at its estimated usage.
 */
export const callStartedLineSchema = z.strictObject({
  line: z.literal('call-started'),
  sequence: z.int().positive(),
  timestamp: z.iso.datetime(),
  role: ledgerEntrySchema.shape.role,
  purpose: z.string().min(1),
  provider: z.string().min(1),
  modelId: z.string().min(1),
  globalStep: z.int().nonnegative().optional(),
  worker: ledgerEntrySchema.shape.worker,
  /** The prompt's tokens estimated from its length, used if the call never finishes. */
  estimatedUsage: usageSchema,
});
export type CallStartedLine = z.infer<typeof callStartedLineSchema>;

export const callFinishedLineSchema = z.strictObject({
  line: z.literal('call-finished'),
  sequence: z.int().positive(),
  timestamp: z.iso.datetime(),
  ...ledgerEntrySchema.pick({ usage: true, costUsd: true, latencyMs: true, outcome: true, errorCode: true, warnings: true }).shape,
});
export type CallFinishedLine = z.infer<typeof callFinishedLineSchema>;

export const callRecordedLineSchema = z.strictObject({ line: z.literal('call-recorded'), ...ledgerEntrySchema.shape });
export type CallRecordedLine = z.infer<typeof callRecordedLineSchema>;

const ledgerLineSchema = z.discriminatedUnion('line', [callStartedLineSchema, callFinishedLineSchema, callRecordedLineSchema]);
export type LedgerLine = z.infer<typeof ledgerLineSchema>;
const ledgerLineReader = tolerantSchema(ledgerLineSchema);

export interface LedgerFileContent {
  /** In sequence order; a start whose finish is missing is an `incomplete` entry. */
  entries: LedgerEntry[];
  malformedLines: MalformedLine[];
  tornFinalLine: string | undefined;
}

/** The entries a ledger.jsonl holds (a missing file holds none). */
export async function readLedgerFile(filePath: string): Promise<LedgerFileContent> {
  const content = await readJsonLinesFile<LedgerLine>(filePath, {
    accept(value) {
      const parsed = ledgerLineReader.safeParse(value);
      return parsed.success
        ? { ok: true, record: parsed.data }
        : { ok: false, reason: `not a ledger line (${parsed.error.issues[0]?.message ?? 'wrong shape'})` };
    },
  });
  return { entries: entriesOfLines(content.records), malformedLines: content.malformedLines, tornFinalLine: content.tornFinalLine };
}

/** Folds the lines of a ledger file into entries. */
export function entriesOfLines(lines: readonly LedgerLine[]): LedgerEntry[] {
  const bySequence = new Map<number, LedgerEntry>();
  for (const line of lines) {
    if (line.line === 'call-recorded') {
      const { line: _kind, ...entry } = line;
      bySequence.set(entry.sequence, entry);
    } else if (line.line === 'call-started') {
      const { line: _kind, estimatedUsage, ...started } = line;
      bySequence.set(started.sequence, {
        ...started,
        usage: { ...estimatedUsage, estimated: true },
        costUsd: null,
        latencyMs: 0,
        cacheHit: false,
        outcome: 'incomplete',
      });
    } else {
      const started = bySequence.get(line.sequence);
      // A finish without its start cannot be attributed to a model; it is left out.
      if (started === undefined) continue;
      const { line: _kind, timestamp: _finishedAt, ...finished } = line;
      bySequence.set(line.sequence, { ...started, ...finished });
    }
  }
  return [...bySequence.values()].sort((a, b) => a.sequence - b.sequence);
}
