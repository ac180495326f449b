import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { globToRegExp, locateItemDocuments, MAX_GREP_MATCHES, resolveDocumentRoots, runOfficeQaTool, type ItemDocument, type ToolOutcome } from '../src/index';
import { temporaryDirectory, writeText } from './helpers';

const SECRET = 'TOP-SECRET-LAUNCH-CODE';
const ITEM_FILES = ['report.txt', 'sub/table.txt', 'passwd-link.txt', 'secret-link.txt', 'inside-link.txt', 'linkdir/secret.txt'];

let dir = '';
let cleanup: () => Promise<void> = async () => undefined;
let documents: ItemDocument[] = [];

beforeAll(async () => {
  ({ dir, cleanup } = await temporaryDirectory());
  const corpus = path.join(dir, 'corpus');
  await writeText(path.join(dir, 'outside', 'secret.txt'), `${SECRET}\nroot:x:0:0\n`);
  await writeText(path.join(corpus, 'report.txt'), ['Quarterly report', 'Total receipts: 2,602', 'Total outlays: 3,100', 'Deficit: -498', ''].join('\n'));
  await writeText(path.join(corpus, 'sub', 'table.txt'), '| Region | Trips |\n| Europe | 168 |\n');
  await writeText(path.join(corpus, 'other.txt'), `not this item's document ${SECRET}\n`);
  await mkdir(corpus, { recursive: true });
  await symlink('/etc/passwd', path.join(corpus, 'passwd-link.txt'));
  await symlink(path.join('..', 'outside', 'secret.txt'), path.join(corpus, 'secret-link.txt'));
  await symlink('report.txt', path.join(corpus, 'inside-link.txt'));
  await symlink(path.join('..', 'outside'), path.join(corpus, 'linkdir'));
  const roots = await resolveDocumentRoots([corpus]);
  documents = await locateItemDocuments('item-1', ITEM_FILES, roots);
});
afterAll(() => cleanup());

const run = (toolName: string, input: unknown, maxCharacters = 8000): Promise<ToolOutcome> =>
  runOfficeQaTool({ toolCallId: 'c1', toolName, input }, documents, maxCharacters);

/** Nothing of the outside world: no secret, no passwd line, no host path. */
function expectNothingLeaked(outcome: ToolOutcome): void {
  expect(outcome.output).not.toContain(SECRET);
  expect(outcome.output).not.toMatch(/root:x?:?0/);
  expect(outcome.output).not.toContain(dir);
}

describe('glob', () => {
  it("lists only the item's documents, by name", async () => {
    expect(await run('glob', { pattern: '*.txt' })).toEqual({ output: [...ITEM_FILES].sort().join('\n'), isError: false });
    expect((await run('glob', { pattern: '**/*.txt' })).output.split('\n')).toHaveLength(ITEM_FILES.length);
    expect(await run('glob', { pattern: 'sub/*' })).toEqual({ output: 'sub/table.txt', isError: false });
    expect(await run('glob', { pattern: 'table.txt' })).toEqual({ output: 'sub/table.txt', isError: false });
    expect(await run('glob', { pattern: 'other.txt' })).toEqual({ output: '[no matches]', isError: false });
  });

  it('refuses absolute and parent-directory patterns, and cannot reach outside the corpus', async () => {
    for (const pattern of ['/etc/*', '/**', '../*', '../outside/*', 'sub/../../*']) {
      const outcome = await run('glob', { pattern });
      expect([pattern, outcome.isError]).toEqual([pattern, true]);
      expect(outcome.output).toMatch(/refused/);
      expectNothingLeaked(outcome);
    }
  });

  it('follows fnmatch: * crosses /, ? is one character, [..] and [!..] are sets', () => {
    expect(globToRegExp('*.txt').test('a/b.txt')).toBe(true);
    expect(globToRegExp('report.?xt').test('report.txt')).toBe(true);
    expect(globToRegExp('[rs]*').test('sub/x')).toBe(true);
    expect(globToRegExp('[!rs]*').test('sub/x')).toBe(false);
    expect(globToRegExp('a.txt').test('aXtxt')).toBe(false);
    expect(globToRegExp('REPORT.txt').test('report.txt')).toBe(false);
  });
});

describe('read', () => {
  it('returns numbered lines, with offset and limit', async () => {
    expect(await run('read', { path: 'report.txt' })).toEqual({
      output: '[report.txt: lines 1-4 of 4]\n1: Quarterly report\n2: Total receipts: 2,602\n3: Total outlays: 3,100\n4: Deficit: -498',
      isError: false,
    });
    expect((await run('read', { path: './report.txt', offset: 2, limit: 1 })).output).toBe(
      '[report.txt: lines 2-2 of 4]\n2: Total receipts: 2,602\n[... more lines follow; continue with offset=3]',
    );
    expect((await run('read', { path: 'report.txt', offset: '3', limit: '5' })).output).toMatch(/^\[report.txt: lines 3-4 of 4\]/);
    expect((await run('read', { path: 'report.txt', offset: 9 })).output).toBe('[report.txt has 4 lines; offset 9 is past the end]');
    expect((await run('read', { path: 'inside-link.txt' })).output).toContain('Total receipts');
  });

  it('cuts long output at a line and says where to continue', async () => {
    const note = (cap: number, next: number) => `[... output cut at ${cap} characters; continue with offset=${next}]`;
    expect((await run('read', { path: 'report.txt' }, 100)).output).toBe(`[report.txt: lines 1-4 of 4]\n1: Quarterly report\n${note(100, 2)}`);
    expect((await run('read', { path: 'report.txt', offset: 2 }, 80)).output).toBe(
      `[report.txt: lines 2-4 of 4]\n2: Total receipts: 2,60 [... line cut]\n${note(80, 3)}`,
    );
    expect((await run('read', { path: 'report.txt' }, 8000)).output).not.toContain('output cut');
  });

  it('rejects bad arguments as tool errors', async () => {
    expect(await run('read', { path: 'report.txt', offset: 0 })).toMatchObject({ isError: true, output: expect.stringMatching(/offset.*at least 1/) });
    expect(await run('read', {})).toMatchObject({ isError: true, output: expect.stringMatching(/"path" must be a non-empty string/) });
    expect(await run('read', 'report.txt')).toMatchObject({ isError: true, output: expect.stringMatching(/must be a JSON object/) });
    expect(await run('read', '{"path":"report.txt"}')).toMatchObject({ isError: false });
  });

  it.each([
    ['../outside/secret.txt', /refused.*"\.\."/],
    ['sub/../report.txt', /refused.*"\.\."/],
    ['/etc/passwd', /refused.*absolute path/],
    ['C:\\Windows\\win.ini', /refused/],
    ['other.txt', /not one of this task's documents/],
    ['passwd-link.txt', /refused, it is a link to a file outside the document folder/],
    ['secret-link.txt', /refused, it is a link to a file outside the document folder/],
    ['linkdir/secret.txt', /refused, it is a link to a file outside the document folder/],
  ])('refuses %s with an error result and no content', async (requested, message) => {
    const outcome = await run('read', { path: requested });
    expect(outcome.isError).toBe(true);
    expect(outcome.output).toMatch(message);
    expectNothingLeaked(outcome);
  });

  it('refuses the absolute host path of a real document too', async () => {
    const outcome = await run('read', { path: path.join(dir, 'corpus', 'report.txt') });
    expect(outcome).toMatchObject({ isError: true, output: expect.stringMatching(/absolute path/) });
  });
});

describe('grep', () => {
  it('stops a catastrophically backtracking pattern and reports it instead of hanging the run', async () => {
    const { dir: slowDirectory, cleanup: removeSlow } = await temporaryDirectory();
    try {
      await writeText(path.join(slowDirectory, 'corpus', 'slow.txt'), `${'a'.repeat(41)}b\n`);
      const slowDocuments = await locateItemDocuments('item-2', ['slow.txt'], await resolveDocumentRoots([path.join(slowDirectory, 'corpus')]));
      const outcome = await runOfficeQaTool({ toolCallId: 'c2', toolName: 'grep', input: { pattern: '^(a+)+$' } }, slowDocuments, 8000);
      expect(outcome.isError).toBe(true);
      expect(outcome.output).toMatch(/took longer than \d+ ms/);
    } finally {
      await removeSlow();
    }
  });

  it('finds matching lines as document:line: text, case-insensitively', async () => {
    expect(await run('grep', { pattern: 'total (receipts|outlays)' })).toMatchObject({
      isError: false,
      output: expect.stringContaining('report.txt:2: Total receipts: 2,602\nreport.txt:3: Total outlays: 3,100'),
    });
    expect((await run('grep', { pattern: 'europe', path: 'sub/*' })).output).toBe('sub/table.txt:2: | Europe | 168 |');
    expect((await run('grep', { pattern: 'nothing like this' })).output).toMatch(/\[no matches\]$/);
  });

  it('never searches outside: links that leave the corpus are skipped, other files are not seen', async () => {
    const outcome = await run('grep', { pattern: 'secret|root|code' });
    expect(outcome.isError).toBe(false);
    expect(outcome.output).toMatch(/\[skipped passwd-link.txt: refused/);
    expectNothingLeaked(outcome);
    for (const requested of ['/etc/passwd', '../outside/secret.txt', '../*', 'passwd-link.txt', 'other.txt']) {
      const refused = await run('grep', { pattern: '.', path: requested });
      expect([requested, refused.isError]).toEqual([requested, true]);
      expectNothingLeaked(refused);
    }
  });

  it('reports an invalid regular expression and caps the number of matches', async () => {
    expect(await run('grep', { pattern: '(unclosed' })).toMatchObject({ isError: true, output: expect.stringMatching(/invalid regular expression/) });
    const many = await run('grep', { pattern: '.', path: 'report.txt' });
    expect(many.output.split('\n').length).toBeLessThanOrEqual(MAX_GREP_MATCHES + 2);
  });
});

describe('other calls', () => {
  it('answers an unknown tool with an error result', async () => {
    expect(await run('bash', { command: 'cat /etc/passwd' })).toEqual({ output: 'unknown tool "bash"; the tools are glob, read, grep', isError: true });
  });
});

describe('document folders', () => {
  it("uses a folder's transformed/ subfolder and reports a missing document as a data error", async () => {
    const { dir: root, cleanup: remove } = await temporaryDirectory();
    try {
      await writeText(path.join(root, 'docs', 'transformed', 'a.txt'), 'A');
      await writeText(path.join(root, 'docs', 'jsons', 'a.json'), '{}');
      const roots = await resolveDocumentRoots([path.join(root, 'missing'), path.join(root, 'docs')]);
      expect(roots).toHaveLength(1);
      expect(roots[0]).toMatch(/transformed$/);
      await expect(locateItemDocuments('x', ['a.txt', 'b.txt'], roots)).rejects.toMatchObject({
        code: 'data-invalid',
        message: expect.stringMatching(/item x: document b.txt not found/),
      });
      await expect(resolveDocumentRoots([path.join(root, 'missing')])).rejects.toMatchObject({
        code: 'data-invalid',
        message: expect.stringMatching(/none of the document folders exists/),
      });
    } finally {
      await remove();
    }
  });
});
