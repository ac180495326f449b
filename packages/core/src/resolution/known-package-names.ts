import type { PackageKind } from '@skillopt/contract';

/** An env or backend package SkillOpt itself publishes, or has announced and not published yet. */
export interface FirstPartyPackage {
  /** The short name a config uses: `searchqa`, `openai`. */
  id: string;
  /** Whether `@skillopt/<env|backends>-<id>` is on the registry: only then is its `npm install` suggested. */
  published: boolean;
}

/**
 * The one list of first-party package names, for the "did you mean" of a name that does not
 * resolve: a misspelt `searchqaa` is pointed at `searchqa`, never at an `npm install` of a package
 * that does not exist. Planned ones are listed so that their names are recognised and said to be
 * unpublished rather than guessed at.
 */
export const FIRST_PARTY_PACKAGES: Readonly<Record<PackageKind, readonly FirstPartyPackage[]>> = {
  env: [
    { id: 'searchqa', published: true },
    { id: 'livemath', published: true },
    { id: 'docvqa', published: true },
    { id: 'officeqa', published: true },
    { id: 'spreadsheetbench', published: true },
    { id: 'alfworld', published: true },
  ],
  backend: [
    { id: 'sim', published: true },
    { id: 'openai', published: true },
    { id: 'anthropic', published: true },
    { id: 'claude-code', published: true },
    { id: 'codex', published: true },
    { id: 'copilot', published: true },
    { id: 'opencode', published: true },
    { id: 'pi', published: true },
    { id: 'cursor', published: true },
    { id: 'handoff', published: true },
  ],
};

/**
 * Where a run's rollouts can run: `in-process` is core's own executor, every other id is the
 * published package `@skillopt/executor-<id>`, loaded by name only when a run asks for it.
 */
export const EXECUTOR_IDS = ['in-process', 'bullmq'] as const;
export type ExecutorId = (typeof EXECUTOR_IDS)[number];
