import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { adoptProposal } from '../src/adoption/adopt-proposal';
import { ADOPTION_RECOVERY_CONFLICT_ERROR_CODE, recoverInterruptedTransaction } from '../src/adoption/file-transaction';
import { readStagedProposal } from '../src/staging/staged-proposals';
import { type AdoptionFixture, createAdoptionFixture, ORIGINAL_SKILL, PROPOSED_NEW_SKILL, PROPOSED_SKILL } from './adoption-fixture';

// The built package, as a user's process loads it: the test target builds it first.
const builtPackage = pathToFileURL(path.resolve(__dirname, '..', 'dist', 'index.js')).href;

/** Runs adoptProposal in a child process that kills itself with SIGKILL after its `killAfter`-th live file. */
async function adoptAndKill(fixture: AdoptionFixture, stagingDirectory: string, killAfter: number): Promise<NodeJS.Signals | null> {
  const script = path.join(fixture.root, 'adopt-and-kill.mjs');
  writeFileSync(
    script,
    `import { adoptProposal } from ${JSON.stringify(builtPackage)};
const [stagingDirectory, journalDirectory, killAfter] = process.argv.slice(2);
let written = 0;
await adoptProposal({
  stagingDirectory,
  journalDirectory,
  onFileWritten: () => {
    written += 1;
    if (written === Number(killAfter)) process.kill(process.pid, 'SIGKILL');
  },
});
`,
  );
  const child = spawn(process.execPath, [script, stagingDirectory, fixture.journalDirectory, String(killAfter)], {
    env: { ...process.env, NODE_OPTIONS: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (_code, signal) => resolve(signal));
  });
}

describe('an adoption killed with SIGKILL between its files', () => {
  let fixture: AdoptionFixture;
  beforeEach(() => {
    fixture = createAdoptionFixture();
  });
  afterEach(() => fixture.remove());

  const journal = () => path.join(fixture.journalDirectory, 'journal.json');
  const lock = () => path.join(fixture.journalDirectory, 'skillopt.lock');

  it.each([
    [1, 'the existing document written'],
    [2, 'both documents written'],
    [3, 'both documents and the receipt written'],
  ])('is rolled back by the next adoption, which then adopts everything (killed after %i: %s)', async (killAfter) => {
    const staged = await fixture.stage();
    expect(await adoptAndKill(fixture, staged.directory, killAfter)).toBe('SIGKILL');

    expect(readFileSync(fixture.existingSkill, 'utf8')).toBe(PROPOSED_SKILL);
    expect(existsSync(fixture.newSkill)).toBe(killAfter >= 2);
    expect(existsSync(path.join(staged.directory, 'receipt.json'))).toBe(killAfter >= 3);
    expect(existsSync(journal())).toBe(true);
    // The killed process could not release its lock: the next one takes the stale lock over.
    expect(existsSync(lock())).toBe(true);

    const adopted = await adoptProposal({ stagingDirectory: staged.directory, journalDirectory: fixture.journalDirectory });
    const restored = [fixture.existingSkill, fixture.newSkill, path.join(staged.directory, 'receipt.json')].slice(0, killAfter).reverse();
    expect(adopted.recovered?.restoredFiles).toEqual(restored);
    expect(adopted.recovered?.removedDirectories).toEqual(
      killAfter >= 2 ? [path.dirname(fixture.newSkill), path.join(fixture.newSkillTopDirectory, 'skills'), fixture.newSkillTopDirectory] : [],
    );

    expect(readFileSync(fixture.existingSkill, 'utf8')).toBe(PROPOSED_SKILL);
    expect(readFileSync(fixture.newSkill, 'utf8')).toBe(PROPOSED_NEW_SKILL);
    const proposal = await readStagedProposal(staged.directory);
    expect(proposal.status).toBe('adopted');
    expect(proposal.receipt?.entries).toHaveLength(1);
    // Only the completed adoption's backup is left: the interrupted one's went with its rollback.
    const backups = readdirSync(path.join(staged.directory, 'backups'));
    expect(backups).toEqual([path.basename(adopted.documents[0]!.backupFile!)]);
    expect(readFileSync(adopted.documents[0]!.backupFile!, 'utf8')).toBe(ORIGINAL_SKILL);
    expect(existsSync(journal())).toBe(false);
    expect(existsSync(lock())).toBe(false);
  });

  it('puts the first document back to its original bytes when recovered on its own, leaving nothing half-applied', async () => {
    const staged = await fixture.stage();
    expect(await adoptAndKill(fixture, staged.directory, 1)).toBe('SIGKILL');

    const recovered = await recoverInterruptedTransaction(fixture.journalDirectory);
    expect(recovered).toMatchObject({ label: `adopt ${staged.directory}`, restoredFiles: [fixture.existingSkill] });
    expect(readFileSync(fixture.existingSkill, 'utf8')).toBe(ORIGINAL_SKILL);
    expect(existsSync(fixture.newSkill)).toBe(false);
    expect(existsSync(fixture.newSkillTopDirectory)).toBe(false);
    expect((await readStagedProposal(staged.directory)).status).toBe('pending');
    expect(existsSync(journal())).toBe(false);
    expect(await recoverInterruptedTransaction(fixture.journalDirectory)).toBeUndefined();
  });

  it('keeps the journal and names the file and its backup when the file was edited after the kill', async () => {
    const staged = await fixture.stage();
    expect(await adoptAndKill(fixture, staged.directory, 1)).toBe('SIGKILL');
    writeFileSync(fixture.existingSkill, `${PROPOSED_SKILL}- my edit after the crash\n`);
    const recorded = JSON.parse(readFileSync(journal(), 'utf8'));
    const backupFile: string = recorded.changes[0].backupFile;

    const conflict = adoptProposal({ stagingDirectory: staged.directory, journalDirectory: fixture.journalDirectory });
    await expect(conflict).rejects.toMatchObject({ code: ADOPTION_RECOVERY_CONFLICT_ERROR_CODE, category: 'user' });
    await expect(conflict).rejects.toThrow(fixture.existingSkill);
    await expect(conflict).rejects.toThrow(backupFile);
    expect(readFileSync(fixture.existingSkill, 'utf8')).toBe(`${PROPOSED_SKILL}- my edit after the crash\n`);
    expect(existsSync(journal())).toBe(true);

    // What the message says to do: put the backup back, and run again.
    copyFileSync(backupFile, fixture.existingSkill);
    await adoptProposal({ stagingDirectory: staged.directory, journalDirectory: fixture.journalDirectory });
    expect(readFileSync(fixture.existingSkill, 'utf8')).toBe(PROPOSED_SKILL);
    expect(readFileSync(fixture.newSkill, 'utf8')).toBe(PROPOSED_NEW_SKILL);
    expect(existsSync(journal())).toBe(false);
  });
});
