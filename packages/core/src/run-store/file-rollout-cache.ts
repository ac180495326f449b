import path from 'node:path';
import { ERROR_CODES, SkillOptError, scoredRolloutSchema, tolerantSchema, type RolloutResult, type ScoredRollout } from '@skillopt/contract';
import { z } from 'zod';
import { rolloutCacheKeyText, type RolloutCache, type RolloutCacheKey } from '../rollout-cache/rollout-cache.js';
import { createJsonLinesAppender, readJsonLinesFile, type JsonLinesAppender, type MalformedLine } from './json-lines-file.js';

/**
 * A rollout cache on disk, so rollouts paid for survive a killed run and are reused on resume.
 *
 * Content-addressed: one JSON Lines file per skill hash, `<directory>/<skillHash>.jsonl`, each line
 * `{itemId, sampleIndex, targetModelId, result}`. A skill's file is read the first time that skill
 * is asked about (a run touches a few hundred skills at most, each with a few hundred lines), then
 * served from memory. A later line for the same key wins. Torn or malformed lines, and lines whose
 * result is not a valid scored rollout, are skipped and counted, never served.
 *
 * Only scored results are stored: an errored rollout is an infrastructure failure to try again.
 */
export interface FileRolloutCache extends RolloutCache {
  readonly directory: string;
  stats(): FileRolloutCacheStats;
  /** Resolves when every write so far is on disk (rejects with the first failure). */
  flush(): Promise<void>;
  /** Flushes and closes every file the cache holds open; later writes open them again. */
  close(): Promise<void>;
}

export interface FileRolloutCacheStats {
  hits: number;
  misses: number;
  /** Results written by this process. */
  stored: number;
  /** Errored results that were offered and, by design, not stored. */
  refusedErrored: number;
  /** Skipped lines across the files loaded so far: torn final lines plus malformed ones. */
  skippedLines: number;
}

export interface FileRolloutCacheOptions {
  /** Usually `<run directory>/rollouts`; a directory shared between runs works too. */
  directory: string;
  /** Called once per file with the lines it had to skip, for a warning. */
  onSkippedLines?: (report: { filePath: string; malformedLines: MalformedLine[]; tornFinalLine: string | undefined }) => void;
}

const cacheLineSchema = z.strictObject({
  itemId: z.string(),
  sampleIndex: z.int().nonnegative(),
  targetModelId: z.string(),
  result: scoredRolloutSchema,
});
type CacheLine = z.infer<typeof cacheLineSchema>;
/** Lines written by a newer release may carry more fields; they are kept, not refused. */
const cacheLineReader = tolerantSchema(cacheLineSchema);

/** Cache files held open at once; see appenderOf. */
const MAX_OPEN_CACHE_FILES = 8;

/** Skill hashes name files, so they must be plain names (skillHash() gives 16 hex characters). */
const SAFE_SKILL_HASH = /^[A-Za-z0-9_-]{1,128}$/;

export function createFileRolloutCache(options: FileRolloutCacheOptions): FileRolloutCache {
  const directory = path.resolve(options.directory);
  // Per skill hash: the loaded index (a promise, so concurrent first lookups load it once).
  const indexes = new Map<string, Promise<Map<string, ScoredRollout>>>();
  const appenders = new Map<string, JsonLinesAppender>();
  let closing: Promise<void> = Promise.resolve();
  let closeFailure: unknown;
  const counters: FileRolloutCacheStats = { hits: 0, misses: 0, stored: 0, refusedErrored: 0, skippedLines: 0 };

  function fileOf(hash: string): string {
    if (!SAFE_SKILL_HASH.test(hash))
      throw new SkillOptError({
        code: ERROR_CODES.internal,
        category: 'internal',
        message: `The rollout cache key's skill hash ${JSON.stringify(hash)} is not a plain name (letters, digits, "-", "_").`,
      });
    return path.join(directory, `${hash}.jsonl`);
  }

  function indexOf(hash: string): Promise<Map<string, ScoredRollout>> {
    let index = indexes.get(hash);
    if (index === undefined) {
      index = loadIndex(hash);
      indexes.set(hash, index);
      // A failed read must not poison the cache for the rest of the run.
      index.catch(() => indexes.delete(hash));
    }
    return index;
  }

  async function loadIndex(hash: string): Promise<Map<string, ScoredRollout>> {
    const filePath = fileOf(hash);
    const content = await readJsonLinesFile<CacheLine>(filePath, {
      accept(value) {
        const parsed = cacheLineReader.safeParse(value);
        return parsed.success ? { ok: true, record: parsed.data } : { ok: false, reason: 'not a scored rollout cache line' };
      },
    });
    const skipped = content.malformedLines.length + (content.tornFinalLine === undefined ? 0 : 1);
    if (skipped > 0) {
      counters.skippedLines += skipped;
      options.onSkippedLines?.({ filePath, malformedLines: content.malformedLines, tornFinalLine: content.tornFinalLine });
    }
    const index = new Map<string, ScoredRollout>();
    for (const line of content.records)
      index.set(rolloutCacheKeyText({ skillHash: hash, itemId: line.itemId, sampleIndex: line.sampleIndex, targetModelId: line.targetModelId }), line.result);
    return index;
  }

  // One file per skill text: a long run writes to hundreds, but only to the skills of the moment
  // (the incumbent, a candidate, the skills being tested), so the least recently used are closed.
  function appenderOf(hash: string): JsonLinesAppender {
    let appender = appenders.get(hash);
    if (appender !== undefined) appenders.delete(hash);
    else appender = createJsonLinesAppender(fileOf(hash));
    appenders.set(hash, appender);
    for (const [oldest, idle] of appenders) {
      if (appenders.size <= MAX_OPEN_CACHE_FILES) break;
      appenders.delete(oldest);
      const closed = idle.close().catch((error: unknown) => {
        closeFailure ??= error;
      });
      closing = closing.then(() => closed);
    }
    return appender;
  }

  return {
    directory,
    async get(key: RolloutCacheKey): Promise<RolloutResult | undefined> {
      const index = await indexOf(key.skillHash);
      const result = index.get(rolloutCacheKeyText(key));
      if (result === undefined) counters.misses++;
      else counters.hits++;
      return result;
    },
    async set(key: RolloutCacheKey, result: RolloutResult): Promise<void> {
      if (result.status !== 'scored') {
        counters.refusedErrored++;
        return;
      }
      const parsed = scoredRolloutSchema.safeParse(result);
      if (!parsed.success)
        throw new SkillOptError({
          code: ERROR_CODES.internal,
          category: 'internal',
          message: `Refusing to cache an invalid rollout result for item ${key.itemId}: ${z.prettifyError(parsed.error)}`,
        });
      const index = await indexOf(key.skillHash);
      const line: CacheLine = { itemId: key.itemId, sampleIndex: key.sampleIndex, targetModelId: key.targetModelId, result: parsed.data };
      await appenderOf(key.skillHash).append(line);
      // Served from memory only once it is on disk, so what a resume sees matches this process.
      index.set(rolloutCacheKeyText(key), parsed.data);
      counters.stored++;
    },
    stats() {
      return { ...counters };
    },
    async flush() {
      await Promise.all([closing, ...[...appenders.values()].map((appender) => appender.flush())]);
      if (closeFailure !== undefined) {
        const failure = closeFailure;
        closeFailure = undefined;
        throw failure;
      }
    },
    async close() {
      const open = [...appenders.values()];
      appenders.clear();
      await Promise.all(open.map((appender) => appender.close()));
      await this.flush();
    },
  };
}
