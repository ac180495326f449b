import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stageProposal } from '../src/staging/stage-proposal';
import type { StagedProposal } from '../src/staging/staged-proposals';

export const sha256 = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');

export const ORIGINAL_SKILL = '# Papers\n\nCite papers by id.\n';
export const PROPOSED_SKILL =
  '# Papers\n\nCite papers by id.\n\n<!-- skillopt-sleep:learned start -->\n- Keep the arXiv: prefix.\n<!-- skillopt-sleep:learned end -->\n';
export const PROPOSED_NEW_SKILL = '# Reviews\n\n- Quote the reviewer.\n';

/**
 * A project with one skill document that exists and one that does not (in folders that do not
 * exist either), and the state folders Sleep would keep outside it.
 */
export interface AdoptionFixture {
  root: string;
  /** The existing document, `.claude/skills/papers/SKILL.md`. */
  existingSkill: string;
  /** The new document, `.agents/skills/reviews/SKILL.md`: `.agents` does not exist. */
  newSkill: string;
  /** The first folder adopting the new document creates. */
  newSkillTopDirectory: string;
  stagingRoot: string;
  journalDirectory: string;
  /** Stages the night's proposal for both documents, pinned to the files as they are now. */
  stage(): Promise<StagedProposal>;
  remove(): void;
}

export function createAdoptionFixture(): AdoptionFixture {
  // Real paths, as the transaction names them (a temporary folder may be reached through a link).
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'sleep-adopt-')));
  const project = path.join(root, 'project');
  const existingSkill = path.join(project, '.claude', 'skills', 'papers', 'SKILL.md');
  mkdirSync(path.dirname(existingSkill), { recursive: true });
  writeFileSync(existingSkill, ORIGINAL_SKILL);
  const stagingRoot = path.join(root, 'state', 'staging');
  const newSkill = path.join(project, '.agents', 'skills', 'reviews', 'SKILL.md');
  return {
    root,
    existingSkill,
    newSkill,
    newSkillTopDirectory: path.join(project, '.agents'),
    stagingRoot,
    journalDirectory: path.join(root, 'state', 'adoption'),
    stage: () =>
      stageProposal({
        stagingRoot,
        nightId: 'night-1',
        skill: 'app-skill',
        night: 1,
        project,
        nightDirectory: path.join(root, 'state', 'nights', '1'),
        documents: [
          { livePath: existingSkill, proposed: PROPOSED_SKILL, liveSha256: sha256(ORIGINAL_SKILL) },
          { livePath: newSkill, proposed: PROPOSED_NEW_SKILL, liveSha256: null },
        ],
        report: { outcome: 'accepted' },
        reportMarkdown: '# Night 1\n',
      }),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
