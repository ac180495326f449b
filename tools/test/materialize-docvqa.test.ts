/// <reference path="../../packages/env-docvqa/src/text-files.d.ts" />
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEnvironment, type DocVqaTaskItem } from '../../packages/env-docvqa/src/index';

// Each test runs the materialize script as a process, some tests several times, a Node start each,
// which a loaded machine slows many times over: the limit is there to catch a hang, not to time the
// runs.
jest.setTimeout(300_000);

const script = path.join(__dirname, '..', 'materialize-docvqa', 'materialize.mjs');
const fixture = path.join(__dirname, 'fixtures', 'docvqa-raw');
const csv = path.join(fixture, 'questions.csv');
const images = path.join(fixture, 'images');
const manifestDir = path.join(fixture, 'manifest');

const directories: string[] = [];
function temporaryDirectory(): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'materialize-docvqa-'));
  directories.push(directory);
  return directory;
}
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

function run(...args: string[]): { status: number; stdout: string; stderr: string } {
  const result = spawnSync('node', [script, ...args], { encoding: 'utf8' });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** Calls one of the script's exports in a child process (it is an ES module) and returns the JSON result. */
function callExport(name: string, ...args: unknown[]): unknown {
  const code = `const m = await import(${JSON.stringify(script)}); try { console.log(JSON.stringify({ value: m.${name}(...${JSON.stringify(args)}) })); } catch (error) { console.log(JSON.stringify({ error: error.message })); }`;
  return JSON.parse(execFileSync('node', ['--input-type=module', '-e', code], { encoding: 'utf8' }));
}

async function loadAll(splitDirectory: string): Promise<Record<string, DocVqaTaskItem[]>> {
  const environment = createEnvironment({ split_dir: splitDirectory });
  return {
    train: (await environment.loadSplit('train')) as DocVqaTaskItem[],
    val: (await environment.loadSplit('val')) as DocVqaTaskItem[],
    test: (await environment.loadSplit('test')) as DocVqaTaskItem[],
  };
}

describe('materialize-docvqa', () => {
  it('builds a split directory that the env loads: manifest order, parsed answers, copied page images', async () => {
    const out = path.join(temporaryDirectory(), 'split');
    const result = run('--csv', csv, '--images', images, '--manifest-dir', manifestDir, '--out', out);
    expect(result).toMatchObject({ status: 0, stderr: '' });
    expect(result.stdout).toBe(`wrote ${out}: 2 train, 1 val, 1 test items; 4 page images\n`);

    const splits = await loadAll(out);
    expect(Object.fromEntries(Object.entries(splits).map(([split, items]) => [split, items.map((item) => item.id)]))).toEqual({
      train: ['101', '102'],
      val: ['103'],
      test: ['104'],
    });
    const [form, letter] = splits.train!;
    expect(form).toEqual({
      id: '101',
      questionId: '101',
      taskType: 'docvqa',
      question: 'What is the form number?',
      references: ['F-17'],
      image_path: path.join(out, 'images', 'q101_d10.png'),
      topic: 'form',
      docId: '10',
      ucsf_document_id: 'abcd0001',
      ucsf_document_page_no: '1',
      source_split: 'validation',
    });
    // A quoted field with a line break: the document_path suffix is split off and names the image.
    expect(letter).toMatchObject({ question: 'Who signed the letter?', references: ["O'Neil", "M. O'Neil"], topic: 'handwritten' });
    expect(readFileSync(letter!.image_path)).toEqual(readFileSync(path.join(images, 'documents', 'q102_d11.png')));
    // Doubled quotes inside quoted fields, and a comma inside a quoted answer list.
    expect(splits.val![0]).toMatchObject({ question: 'Which heading is printed "in bold"?', references: ['He said "yes"', 'Summary'], topic: 'table/list' });
    expect(splits.test![0]).toMatchObject({ question: 'What is the total, including tax?', references: ['$1,250.00', '1,250.00'], topic: 'layout' });
    expect(readFileSync(splits.test![0]!.image_path)).toEqual(readFileSync(path.join(images, 'pages', 'p104.png')));

    const written = JSON.parse(readFileSync(path.join(out, 'split_manifest.json'), 'utf8'));
    expect(written).toMatchObject({ source_manifest_dir: manifestDir, source_csv: [csv], counts: { train: 2, val: 1, test: 1 }, images: 4 });
    // Row 999 is in no split and is left out.
    expect(JSON.stringify(splits)).not.toContain('999');
  });

  it('refuses to overwrite a split unless told to', () => {
    const out = path.join(temporaryDirectory(), 'split');
    expect(run('--csv', csv, '--images', images, '--manifest-dir', manifestDir, '--out', out).status).toBe(0);
    const again = run(`--csv=${csv}`, `--images=${images}`, `--manifest-dir=${manifestDir}`, `--out=${out}`);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already holds a split \(train\/items\.json, val\/items\.json, test\/items\.json, split_manifest\.json\); pass --overwrite/);
    expect(run('--csv', csv, '--images', images, '--manifest-dir', manifestDir, '--out', out, '--overwrite').status).toBe(0);
  });

  it('names every manifest id the CSV lacks, and writes nothing', () => {
    const directory = temporaryDirectory();
    const manifest = path.join(directory, 'manifest');
    cpSync(manifestDir, manifest, { recursive: true });
    const testFile = path.join(manifest, 'test', 'items.json');
    writeFileSync(testFile, JSON.stringify([...JSON.parse(readFileSync(testFile, 'utf8')), { id: '555' }, { id: '556' }]));
    const out = path.join(directory, 'split');
    const result = run('--csv', csv, '--images', images, '--manifest-dir', manifest, '--out', out);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('error: nothing was written:\n  - 2 manifest id(s) are not in the CSV: 555 (test), 556 (test)');
    expect(existsSync(out)).toBe(false);
  });

  it('names every page image it cannot find, with the places it looked', () => {
    const directory = temporaryDirectory();
    const partial = path.join(directory, 'images');
    cpSync(images, partial, { recursive: true });
    rmSync(path.join(partial, 'pages', 'p103.png'));
    rmSync(path.join(partial, 'data'), { recursive: true });
    const result = run('--csv', csv, '--images', partial, '--manifest-dir', manifestDir, '--out', path.join(directory, 'split'));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `2 page image(s) were not found under ${partial}: 101 (looked for ${path.join(partial, 'data', 'docvqa_images', 'q101_d10.png')}, ${path.join(partial, 'q101_d10.png')})`,
    );
    expect(result.stderr).toContain(`103 (looked for ${path.join(partial, 'pages', 'p103.png')}, ${path.join(partial, 'p103.png')}`);
    expect(existsSync(path.join(directory, 'split'))).toBe(false);
  });

  it('reads several CSVs, and rejects a questionId that two rows share', () => {
    const directory = temporaryDirectory();
    const [header, ...lines] = readFileSync(csv, 'utf8').split('\n');
    // Rows 104 and 101 in one file, the rest (multi-line row included) in another.
    const first = path.join(directory, 'a.csv');
    const second = path.join(directory, 'b.csv');
    writeFileSync(first, [header, lines[0], lines[1], ''].join('\n'));
    writeFileSync(second, [header, ...lines.slice(2)].join('\n'));
    expect(run('--csv', first, '--csv', second, '--images', images, '--manifest-dir', manifestDir, '--out', path.join(directory, 'split')).status).toBe(0);
    const duplicate = run('--csv', first, '--csv', csv, '--images', images, '--manifest-dir', manifestDir, '--out', path.join(directory, 'other'));
    expect(duplicate.status).toBe(1);
    expect(duplicate.stderr).toContain(`questionId 104 appears twice: ${first} line 2 and ${csv} line 2`);
  });

  it('rejects a CSV without the needed columns or with a ragged row, naming the line', () => {
    const directory = temporaryDirectory();
    const noAnswers = path.join(directory, 'no-answers.csv');
    writeFileSync(noAnswers, 'questionId,question\n1,Q?\n');
    expect(run('--csv', noAnswers, '--images', images, '--manifest-dir', manifestDir, '--out', path.join(directory, 'o')).stderr).toMatch(
      /no "answer", "answers" or "ground_truth" column \(columns: questionId, question\)/,
    );
    const ragged = path.join(directory, 'ragged.csv');
    writeFileSync(ragged, 'questionId,question,answers\n1,"multi\nline",[\'a\']\n2,too,many,fields\n');
    expect(run('--csv', ragged, '--images', images, '--manifest-dir', manifestDir, '--out', path.join(directory, 'o')).stderr).toContain(
      `${ragged} line 4: 4 fields, but the header has 3`,
    );
  });

  it('explains its usage errors with exit code 2', () => {
    const none = run();
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^error: missing --csv, --images, --out\n\nUsage: /);
    expect(run('--csv').stderr).toMatch(/--csv needs a value/);
    expect(run('--frobnicate').stderr).toMatch(/unknown argument --frobnicate/);
    expect(run('--help')).toMatchObject({ status: 0, stdout: expect.stringMatching(/^Usage: /) });
    expect(run('--csv', csv, '--images', path.join(fixture, 'nowhere'), '--out', 'x').stderr).toMatch(/--images .*nowhere is not a directory/);
  });
});

describe('its RFC 4180 CSV parser', () => {
  const fields = (text: string) => {
    const result = callExport('parseCsv', text) as { value?: Array<{ fields: string[]; line: number }>; error?: string };
    return result.error === undefined ? result.value!.map((record) => record.fields) : result.error;
  };

  it('reads quoted fields with commas, line breaks and doubled quotes', () => {
    expect(fields('a,b,c\n1,"x, y","say ""hi"""\n2,"two\nlines",\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', 'x, y', 'say "hi"'],
      ['2', 'two\nlines', ''],
    ]);
  });

  it('accepts CRLF, a byte-order mark, a missing final line break and empty quoted fields', () => {
    expect(fields('\ufeffa,b\r\n"",2\r\n3,"4\r\n5"')).toEqual([
      ['a', 'b'],
      ['', '2'],
      ['3', '4\r\n5'],
    ]);
  });

  it('reports where each record starts', () => {
    const result = callExport('parseCsv', 'h\n"a\nb"\nc\n') as { value: Array<{ line: number }> };
    expect(result.value.map((record) => record.line)).toEqual([1, 2, 4]);
  });

  it('rejects an unclosed quote and stray quotes', () => {
    expect(fields('a\n"never closed\n')).toBe('CSV line 2: a quoted field is never closed');
    expect(fields('a\nb"c\n')).toBe('CSV line 2: a quote inside an unquoted field (quote the whole field and double the quote)');
    expect(fields('a\n"b"c\n')).toBe('CSV line 2: text after the closing quote of a field');
  });
});

describe('its gold-answer reading', () => {
  it('reads Python and JSON list literals, objects and plain strings', () => {
    expect(callExport('parseGoldAnswers', "['1/8/93', '1/8/93']")).toEqual({ value: ['1/8/93'] });
    expect(callExport('parseGoldAnswers', '["a", "b"]')).toEqual({ value: ['a', 'b'] });
    expect(callExport('parseGoldAnswers', "[{'text': 'x'}, {'value': 2}]")).toEqual({ value: ['x', '2'] });
    expect(callExport('parseGoldAnswers', "{'answers': [u'caf\\xe9']}")).toEqual({ value: ['café'] });
    expect(callExport('parseGoldAnswers', '(555) 123-4567')).toEqual({ value: ['(555) 123-4567'] });
    expect(callExport('parseGoldAnswers', "['  ', '']")).toEqual({ value: [] });
  });
});
