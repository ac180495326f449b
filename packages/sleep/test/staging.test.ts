import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SkillOptError } from '@skillopt/contract';
import { stageProposal, type StageProposalOptions } from '../src/staging/stage-proposal';
import { listStagedProposals, readStagedProposal } from '../src/staging/staged-proposals';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('staging a night’s proposal', () => {
  let root: string;
  let stagingRoot: string;
  let options: StageProposalOptions;
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'sleep-staging-'));
    stagingRoot = path.join(root, 'state', 'staging');
    const skill = path.join(root, 'project', '.claude', 'skills', 'papers', 'SKILL.md');
    options = {
      stagingRoot,
      nightId: '2026-03-01-night',
      skill: 'research',
      night: 3,
      project: path.join(root, 'project'),
      nightDirectory: path.join(root, 'state', 'nights', '3'),
      documents: [
        { livePath: skill, proposed: '# Papers\n\n- Keep the arXiv: prefix.\n', liveSha256: sha256('# Papers\n') },
        { livePath: path.join(root, 'project', 'CLAUDE.md'), proposed: '# Project\n', liveSha256: null },
      ],
      report: { outcome: 'accepted', validation: { before: 0.3, after: 1 } },
      reportMarkdown: '# Night 3\n',
      now: new Date('2026-03-01T03:00:00.000Z'),
    };
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes the proposals, both reports and the manifest, which pins what the night read', async () => {
    const staged = await stageProposal(options);
    expect(staged.directory).toBe(path.join(stagingRoot, '2026-03-01-night-research'));
    expect(staged.status).toBe('pending');
    expect(readdirSync(staged.directory).sort()).toEqual(['manifest.json', 'proposed-1-SKILL.md', 'proposed-2-CLAUDE.md', 'report.json', 'report.md']);
    expect(readFileSync(path.join(staged.directory, 'proposed-1-SKILL.md'), 'utf8')).toBe('# Papers\n\n- Keep the arXiv: prefix.\n');
    expect(JSON.parse(readFileSync(path.join(staged.directory, 'report.json'), 'utf8'))).toEqual(options.report);
    expect(readFileSync(path.join(staged.directory, 'report.md'), 'utf8')).toBe('# Night 3\n');
    const manifest = JSON.parse(readFileSync(path.join(staged.directory, 'manifest.json'), 'utf8'));
    expect(manifest).toEqual({
      format: 'skillopt.sleep.staging.v1',
      nightId: '2026-03-01-night',
      skill: 'research',
      night: 3,
      project: options.project,
      createdAt: '2026-03-01T03:00:00.000Z',
      documents: [
        {
          livePath: options.documents[0]!.livePath,
          proposedFile: 'proposed-1-SKILL.md',
          proposedSha256: sha256('# Papers\n\n- Keep the arXiv: prefix.\n'),
          liveSha256: sha256('# Papers\n'),
        },
        { livePath: options.documents[1]!.livePath, proposedFile: 'proposed-2-CLAUDE.md', proposedSha256: sha256('# Project\n'), liveSha256: null },
      ],
      nightDirectory: options.nightDirectory,
    });
    expect(await readStagedProposal(staged.directory)).toEqual(staged);
  });

  it('writes the manifest last: it is what publishes the folder', async () => {
    const staged = await stageProposal(options);
    const written = (name: string) => statSync(path.join(staged.directory, name), { bigint: true }).mtimeNs;
    for (const name of ['proposed-1-SKILL.md', 'proposed-2-CLAUDE.md', 'report.json', 'report.md'])
      expect(written(name)).toBeLessThanOrEqual(written('manifest.json'));
  });

  it.each([
    ['an unchanged document', (o: StageProposalOptions) => ({ ...o, documents: [{ ...o.documents[0]!, proposed: '# Papers\n' }] }), /unchanged/],
    ['an empty proposal', (o: StageProposalOptions) => ({ ...o, documents: [{ ...o.documents[0]!, proposed: ' \n\t' }] }), /empty/],
    ['a live path staged twice', (o: StageProposalOptions) => ({ ...o, documents: [o.documents[0]!, { ...o.documents[0]!, proposed: 'other\n' }] }), /twice/],
    ['a relative live path', (o: StageProposalOptions) => ({ ...o, documents: [{ ...o.documents[0]!, livePath: 'SKILL.md' }] }), /absolute/],
    ['no document at all', (o: StageProposalOptions) => ({ ...o, documents: [] }), /at least one document/],
    ['a night id that is not a folder name', (o: StageProposalOptions) => ({ ...o, nightId: '../escape' }), /nightId/],
  ])('refuses %s as a caller’s bug and leaves no folder', async (_case, change, message) => {
    const refused = stageProposal(change(options));
    await expect(refused).rejects.toThrow(message);
    await expect(refused).rejects.toMatchObject({ category: 'internal' });
    await expect(refused).rejects.toBeInstanceOf(SkillOptError);
    expect(existsSync(stagingRoot) ? readdirSync(stagingRoot) : []).toEqual([]);
  });

  it('removes the reserved folder when a write fails', async () => {
    // A report that cannot be serialised fails after the proposals were written.
    await expect(stageProposal({ ...options, report: { value: 1n } })).rejects.toThrow();
    expect(readdirSync(stagingRoot)).toEqual([]);
  });

  it('gives a second staging of the same night its own folder, -2, -3 …', async () => {
    const first = await stageProposal(options);
    const second = await stageProposal(options);
    const third = await stageProposal(options);
    expect([first, second, third].map((staged) => path.basename(staged.directory))).toEqual([
      '2026-03-01-night-research',
      '2026-03-01-night-research-2',
      '2026-03-01-night-research-3',
    ]);
  });

  it('lists published proposals oldest first, passing over a folder without a manifest', async () => {
    expect(await listStagedProposals(stagingRoot)).toEqual([]);
    const later = await stageProposal({ ...options, nightId: 'a-later-night', now: new Date('2026-03-02T03:00:00.000Z') });
    const earlier = await stageProposal({ ...options, nightId: 'b-earlier-night', now: new Date('2026-02-28T03:00:00.000Z') });
    const sameTime = await stageProposal({ ...options, nightId: 'c-same-time', now: new Date('2026-02-28T03:00:00.000Z') });
    mkdirSync(path.join(stagingRoot, 'interrupted'));
    writeFileSync(path.join(stagingRoot, 'interrupted', 'proposed-1-SKILL.md'), 'half\n');
    writeFileSync(path.join(stagingRoot, 'a-file'), 'not a folder\n');
    const listed = await listStagedProposals(stagingRoot);
    expect(listed.map((staged) => staged.directory)).toEqual([earlier.directory, sameTime.directory, later.directory]);
    expect(listed.every((staged) => staged.status === 'pending' && staged.receipt === undefined)).toBe(true);
  });

  it('names the manifest that is malformed rather than passing over it', async () => {
    const staged = await stageProposal(options);
    const manifest = path.join(staged.directory, 'manifest.json');
    writeFileSync(manifest, JSON.stringify({ ...JSON.parse(readFileSync(manifest, 'utf8')), night: 0 }));
    await expect(listStagedProposals(stagingRoot)).rejects.toThrow(manifest);
    await expect(readStagedProposal(staged.directory)).rejects.toThrow(/night/);
    writeFileSync(manifest, '{"format":');
    await expect(readStagedProposal(staged.directory)).rejects.toThrow(manifest);
  });

  it('refuses to read a folder without a manifest as a proposal', async () => {
    mkdirSync(path.join(stagingRoot, 'interrupted'), { recursive: true });
    await expect(readStagedProposal(path.join(stagingRoot, 'interrupted'))).rejects.toThrow(path.join(stagingRoot, 'interrupted', 'manifest.json'));
  });
});
