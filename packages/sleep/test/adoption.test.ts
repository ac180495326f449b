import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { acquireDirectoryLock } from '@skillopt/core';
import { adoptProposal, undoAdoption } from '../src/adoption/adopt-proposal';
import { ADOPTION_REFUSED_ERROR_CODE } from '../src/adoption/file-transaction';
import { readStagedProposal } from '../src/staging/staged-proposals';
import { type AdoptionFixture, createAdoptionFixture, ORIGINAL_SKILL, PROPOSED_NEW_SKILL, PROPOSED_SKILL, sha256 } from './adoption-fixture';

describe('adopting a staged proposal, and undoing it', () => {
  let fixture: AdoptionFixture;
  beforeEach(() => {
    fixture = createAdoptionFixture();
  });
  afterEach(() => fixture.remove());

  const options = (stagingDirectory: string, now = '2026-03-02T08:00:00.000Z') => ({
    stagingDirectory,
    journalDirectory: fixture.journalDirectory,
    now: new Date(now),
  });
  const journalLeft = () => existsSync(path.join(fixture.journalDirectory, 'journal.json'));
  const lockLeft = () => existsSync(path.join(fixture.journalDirectory, 'skillopt.lock'));

  it('writes every document, backs up the one that existed, records the receipt; adopted twice is refused', async () => {
    const staged = await fixture.stage();
    const adopted = await adoptProposal(options(staged.directory));

    expect(readFileSync(fixture.existingSkill, 'utf8')).toBe(PROPOSED_SKILL);
    expect(readFileSync(fixture.newSkill, 'utf8')).toBe(PROPOSED_NEW_SKILL);
    const [existing, created] = adopted.documents;
    expect(existing).toMatchObject({
      livePath: fixture.existingSkill,
      sha256Before: sha256(ORIGINAL_SKILL),
      sha256After: sha256(PROPOSED_SKILL),
      createdDirectories: [],
    });
    expect(readFileSync(existing!.backupFile!, 'utf8')).toBe(ORIGINAL_SKILL);
    expect(path.dirname(existing!.backupFile!)).toBe(path.join(staged.directory, 'backups'));
    expect(created).toEqual({
      livePath: fixture.newSkill,
      sha256Before: null,
      sha256After: sha256(PROPOSED_NEW_SKILL),
      backupFile: null,
      createdDirectories: [fixture.newSkillTopDirectory, path.join(fixture.newSkillTopDirectory, 'skills'), path.dirname(fixture.newSkill)],
    });
    expect(adopted).toMatchObject({ stagingDirectory: staged.directory, action: 'adopt', recovered: undefined });

    const reread = await readStagedProposal(staged.directory);
    expect(reread.status).toBe('adopted');
    expect(reread.receipt).toEqual({
      format: 'skillopt.sleep.receipt.v1',
      entries: [{ action: 'adopt', at: '2026-03-02T08:00:00.000Z', documents: adopted.documents }],
    });
    expect(journalLeft()).toBe(false);
    expect(lockLeft()).toBe(false);

    const again = adoptProposal(options(staged.directory));
    await expect(again).rejects.toMatchObject({ code: ADOPTION_REFUSED_ERROR_CODE, category: 'user' });
    await expect(again).rejects.toThrow(/was adopted at 2026-03-02T08:00:00.000Z/);
  });

  it('undoes exactly: the old bytes back, the new file and the folders made for it gone; then it can be adopted again', async () => {
    const staged = await fixture.stage();
    await adoptProposal(options(staged.directory));
    const undone = await undoAdoption(options(staged.directory, '2026-03-02T09:00:00.000Z'));

    expect(readFileSync(fixture.existingSkill, 'utf8')).toBe(ORIGINAL_SKILL);
    expect(existsSync(fixture.newSkill)).toBe(false);
    expect(existsSync(fixture.newSkillTopDirectory)).toBe(false);
    expect(undone.action).toBe('undo');
    expect(undone.documents.map((document) => [document.sha256Before, document.sha256After])).toEqual([
      [sha256(PROPOSED_SKILL), sha256(ORIGINAL_SKILL)],
      [sha256(PROPOSED_NEW_SKILL), null],
    ]);
    // Undoing backs up what it replaces too: the adopted texts.
    expect(undone.documents.map((document) => readFileSync(document.backupFile!, 'utf8'))).toEqual([PROPOSED_SKILL, PROPOSED_NEW_SKILL]);
    const afterUndo = await readStagedProposal(staged.directory);
    expect(afterUndo.status).toBe('undone');
    expect(afterUndo.receipt?.entries.map((entry) => entry.action)).toEqual(['adopt', 'undo']);

    await expect(undoAdoption(options(staged.directory))).rejects.toThrow(/already undone/);

    await adoptProposal(options(staged.directory, '2026-03-03T08:00:00.000Z'));
    expect(readFileSync(fixture.existingSkill, 'utf8')).toBe(PROPOSED_SKILL);
    expect(readFileSync(fixture.newSkill, 'utf8')).toBe(PROPOSED_NEW_SKILL);
    const readopted = await readStagedProposal(staged.directory);
    expect(readopted.status).toBe('adopted');
    expect(readopted.receipt?.entries.map((entry) => entry.action)).toEqual(['adopt', 'undo', 'adopt']);
  });

  it('keeps the mode of the file it replaces, and of the file it restores', async () => {
    chmodSync(fixture.existingSkill, 0o640);
    const staged = await fixture.stage();
    await adoptProposal(options(staged.directory));
    expect(statSync(fixture.existingSkill).mode & 0o777).toBe(0o640);
    await undoAdoption(options(staged.directory));
    expect(statSync(fixture.existingSkill).mode & 0o777).toBe(0o640);
  });

  it('refuses, writing nothing, when a document was edited after the night read it', async () => {
    const staged = await fixture.stage();
    writeFileSync(fixture.existingSkill, `${ORIGINAL_SKILL}- my own rule\n`);
    const refused = adoptProposal(options(staged.directory));
    await expect(refused).rejects.toMatchObject({ code: ADOPTION_REFUSED_ERROR_CODE, category: 'user' });
    await expect(refused).rejects.toThrow(fixture.existingSkill);
    await expect(refused).rejects.toThrow(/run a new night/i);
    expect(readFileSync(fixture.existingSkill, 'utf8')).toBe(`${ORIGINAL_SKILL}- my own rule\n`);
    expect(existsSync(fixture.newSkill)).toBe(false);
    expect(existsSync(fixture.newSkillTopDirectory)).toBe(false);
    expect(journalLeft()).toBe(false);
    expect(lockLeft()).toBe(false);
    expect((await readStagedProposal(staged.directory)).status).toBe('pending');
  });

  it('refuses when a document that did not exist was created since, naming it', async () => {
    const staged = await fixture.stage();
    mkdirSync(path.dirname(fixture.newSkill), { recursive: true });
    writeFileSync(fixture.newSkill, '# Mine\n');
    await expect(adoptProposal(options(staged.directory))).rejects.toThrow(new RegExp(`${fixture.newSkill}.*expected no file`));
    expect(readFileSync(fixture.existingSkill, 'utf8')).toBe(ORIGINAL_SKILL);
    expect(readFileSync(fixture.newSkill, 'utf8')).toBe('# Mine\n');
  });

  it('refuses a proposal whose file was edited in the staging folder', async () => {
    const staged = await fixture.stage();
    writeFileSync(path.join(staged.directory, 'proposed-1-SKILL.md'), `${PROPOSED_SKILL}- slipped in\n`);
    const refused = adoptProposal(options(staged.directory));
    await expect(refused).rejects.toMatchObject({ code: ADOPTION_REFUSED_ERROR_CODE });
    await expect(refused).rejects.toThrow(/not the text that was staged/);
    expect(readFileSync(fixture.existingSkill, 'utf8')).toBe(ORIGINAL_SKILL);
    expect(existsSync(fixture.newSkill)).toBe(false);
  });

  it('refuses to undo over a document changed since it was adopted, and to undo what was never adopted', async () => {
    const staged = await fixture.stage();
    await expect(undoAdoption(options(staged.directory))).rejects.toThrow(/never adopted/);
    await adoptProposal(options(staged.directory));
    writeFileSync(fixture.newSkill, `${PROPOSED_NEW_SKILL}- edited after adoption\n`);
    const refused = undoAdoption(options(staged.directory));
    await expect(refused).rejects.toMatchObject({ code: ADOPTION_REFUSED_ERROR_CODE, category: 'user' });
    await expect(refused).rejects.toThrow(new RegExp(`${fixture.newSkill} changed since it was adopted`));
    expect(readFileSync(fixture.existingSkill, 'utf8')).toBe(PROPOSED_SKILL);
    expect(readFileSync(fixture.newSkill, 'utf8')).toBe(`${PROPOSED_NEW_SKILL}- edited after adoption\n`);
    expect((await readStagedProposal(staged.directory)).status).toBe('adopted');
  });

  it('rolls back at once when the transaction fails between files, and rethrows that failure', async () => {
    const staged = await fixture.stage();
    let written = 0;
    const failing = adoptProposal({
      ...options(staged.directory),
      onFileWritten: () => {
        written += 1;
        if (written === 2) throw new Error('the disk is full');
      },
    });
    await expect(failing).rejects.toThrow('the disk is full');
    expect(readFileSync(fixture.existingSkill, 'utf8')).toBe(ORIGINAL_SKILL);
    expect(existsSync(fixture.newSkill)).toBe(false);
    expect(existsSync(fixture.newSkillTopDirectory)).toBe(false);
    expect(journalLeft()).toBe(false);
    expect((await readStagedProposal(staged.directory)).status).toBe('pending');
    // The backups of a transaction that did not happen are removed with it.
    expect(readdirSync(path.join(staged.directory, 'backups'))).toEqual([]);
    await adoptProposal(options(staged.directory));
    expect(readFileSync(fixture.newSkill, 'utf8')).toBe(PROPOSED_NEW_SKILL);
  });

  it('writes through a symbolic link, so the link stays a link', async () => {
    const dotfile = path.join(fixture.root, 'dotfiles', 'papers.md');
    mkdirSync(path.dirname(dotfile));
    writeFileSync(dotfile, ORIGINAL_SKILL);
    unlinkSync(fixture.existingSkill);
    symlinkSync(dotfile, fixture.existingSkill);
    const staged = await fixture.stage();

    const adopted = await adoptProposal(options(staged.directory));
    expect(lstatSync(fixture.existingSkill).isSymbolicLink()).toBe(true);
    expect(readlinkSync(fixture.existingSkill)).toBe(dotfile);
    expect(readFileSync(dotfile, 'utf8')).toBe(PROPOSED_SKILL);
    expect(adopted.documents[0]!.livePath).toBe(fixture.existingSkill);

    await undoAdoption(options(staged.directory));
    expect(lstatSync(fixture.existingSkill).isSymbolicLink()).toBe(true);
    expect(readFileSync(dotfile, 'utf8')).toBe(ORIGINAL_SKILL);
  });

  it('is refused with core’s directory-locked error while another holder has the journal directory', async () => {
    const staged = await fixture.stage();
    mkdirSync(fixture.journalDirectory, { recursive: true });
    const lock = await acquireDirectoryLock(fixture.journalDirectory, { purpose: 'sleep adoption' });
    try {
      await expect(adoptProposal(options(staged.directory))).rejects.toMatchObject({ code: 'directory-locked' });
    } finally {
      await lock.release();
    }
    expect(readFileSync(fixture.existingSkill, 'utf8')).toBe(ORIGINAL_SKILL);
  });
});
