/// <reference path="../../packages/env-officeqa/src/text-files.d.ts" />
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEnvironment, type OfficeQaTaskItem } from '../../packages/env-officeqa/src/index';

const SCRIPT = path.join(__dirname, '..', 'materialize-officeqa', 'materialize.mjs');
const RAW = path.join(__dirname, 'fixtures', 'officeqa-raw');
const PAPER_SPLIT = path.join(__dirname, '..', '..', 'datasets', 'officeqa', 'paper-split');

type RolloutContext = Parameters<ReturnType<typeof createEnvironment>['rollout']>[1];
type ChatTarget = Extract<RolloutContext['target'], { kind: 'chat' }>;
type GenerateRequest = Parameters<ChatTarget['model']['generate']>[0];
type GenerateResult = Awaited<ReturnType<ChatTarget['model']['generate']>>;

/** A two-step test double: grep for "customs", then answer. (tools/ has no dependencies of its own, so no env-kit double.) */
function grepThenAnswer(answer: string): ChatTarget['model'] & { calls: GenerateRequest[] } {
  const calls: GenerateRequest[] = [];
  const usage = { inputTokens: 1, outputTokens: 1, estimated: true };
  return {
    specificationVersion: 'v1',
    provider: 'test-double',
    modelId: 'grep-then-answer',
    calls,
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      calls.push(request);
      return calls.length === 1
        ? { text: '', toolCalls: [{ toolCallId: 't1', toolName: 'grep', input: { pattern: 'customs' } }], usage, finishReason: 'tool-calls' }
        : { text: `<answer>${answer}</answer>`, usage, finishReason: 'stop' };
    },
  };
}

const directories: string[] = [];
function temporaryDirectory(): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'materialize-officeqa-'));
  directories.push(directory);
  return directory;
}
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

function materialize(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function rawArguments(out: string, overrides: { csv?: string; jsons?: string; manifest?: string } = {}): string[] {
  return [
    '--csv',
    overrides.csv ?? path.join(RAW, 'officeqa_full.csv'),
    '--jsons',
    overrides.jsons ?? path.join(RAW, 'jsons'),
    '--manifest-dir',
    overrides.manifest ?? path.join(RAW, 'manifest'),
    '--out',
    out,
  ];
}

/** A copy of the raw fixture, to break one thing in. */
function rawCopy(): string {
  const copy = path.join(temporaryDirectory(), 'raw');
  cpSync(RAW, copy, { recursive: true });
  return copy;
}

describe('materialize-officeqa', () => {
  it('builds a split that the env loads, with the manifest order, the CSV fields and rendered documents', async () => {
    const out = path.join(temporaryDirectory(), 'split');
    const run = materialize(rawArguments(out));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('wrote 2 train, 1 val, 1 test items and 2 documents');

    const environment = createEnvironment({ split_dir: out, corpus_dir: path.join(out, 'corpus') });
    const train = (await environment.loadSplit('train')) as OfficeQaTaskItem[];
    expect(train.map((item) => item.id)).toEqual(['UID9001', 'UID9003']);
    expect(train[0]).toEqual({
      id: 'UID9001',
      taskType: 'easy',
      question: 'What were "Customs | duties" receipts in April 1999, in millions of dollars?',
      references: ['"$1,608.80 million"'],
      files: ['ledger_bulletin_1999_05.txt'],
      sourceDocs: ['https://example.org/ledger?page=2'],
    });
    expect(train[1]).toMatchObject({
      taskType: 'hard',
      references: ['[2540, -0.096]'],
      files: ['ledger_bulletin_1999_05.txt', 'harbour_authority_2001_12.txt'],
      sourceDocs: ['https://example.org/ledger?page=2', 'https://example.org/harbour?page=1'],
    });
    expect((await environment.loadSplit('val')).map((item) => item.id)).toEqual(['UID9002']);
    expect(await environment.loadSplit('test')).toEqual([expect.objectContaining({ id: 'UID9004', taskType: 'hard', references: ['March 3, 1977'] })]);

    const ledger = readFileSync(path.join(out, 'corpus', 'ledger_bulletin_1999_05.txt'), 'utf8');
    expect(ledger).toBe(
      `${[
        '=== page 1 ===',
        'Ledger Bulletin – May 1999',
        'Prepared for the "Quarterly Review" by the Office of Accounts.',
        '=== page 2 ===',
        'Table A-3. Receipts by source (in millions of dollars)',
        '| Source | April 1999 | May 1999 |\n| --- | --- | --- |\n| Customs \\| duties | 1,608.80 | 1,702.15 |\n| Excise & fees | 2,602 | 2,540 |',
      ].join('\n\n')}\n`,
    );
    expect(readFileSync(path.join(out, 'corpus', 'harbour_authority_2001_12.txt'), 'utf8')).toContain('Container traffic rose to 184,143 units.\nThe change');
    expect(JSON.parse(readFileSync(path.join(out, 'split_manifest.json'), 'utf8'))).toMatchObject({
      counts: { train: 2, val: 1, test: 1 },
      documents: 2,
      corpus_dir: 'corpus',
    });

    // A rollout on the materialized split: the tools read the rendered document, the scorer reads the CSV answer.
    const model = grepThenAnswer('1,608.80');
    const result = await environment.rollout(train[0]!, {
      skill: '',
      target: { kind: 'chat', model },
      signal: new AbortController().signal,
      workDirectory: async () => out,
      sampleIndex: 0,
    });
    expect(result).toMatchObject({ status: 'scored', hard: 1, soft: 1 });
    const toolMessage = model.calls[1]!.messages.at(-1)!;
    expect(JSON.stringify(toolMessage)).toContain('ledger_bulletin_1999_05.txt:13: | Customs \\\\| duties | 1,608.80 | 1,702.15 |');
  });

  it('names every manifest id missing from the CSV', () => {
    const run = materialize(rawArguments(path.join(temporaryDirectory(), 'split'), { manifest: PAPER_SPLIT }));
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^materialize-officeqa: 246 ids of the manifest are not in .*officeqa_full\.csv: UID0002 \(train\), UID0007 \(train\), /);
  });

  it('names a missing document with the ids that need it, and writes nothing', () => {
    const raw = rawCopy();
    rmSync(path.join(raw, 'jsons', 'harbour_authority_2001_12.json'));
    const out = path.join(temporaryDirectory(), 'split');
    const run = materialize(
      rawArguments(out, { csv: path.join(raw, 'officeqa_full.csv'), jsons: path.join(raw, 'jsons'), manifest: path.join(raw, 'manifest') }),
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('1 document missing from');
    expect(run.stderr).toContain('harbour_authority_2001_12.json (for harbour_authority_2001_12.txt, needed by UID9003, UID9002, UID9004)');
    expect(() => readFileSync(path.join(out, 'split_manifest.json'))).toThrow();
  });

  it('reports malformed CSV with its line, and duplicate ids', () => {
    const raw = rawCopy();
    const csv = path.join(raw, 'officeqa_full.csv');
    writeFileSync(csv, 'uid,question,answer\nUID9001,"never closed,1\n');
    expect(materialize(rawArguments(temporaryDirectory(), { csv })).stderr).toMatch(/line 2: a quoted field is never closed/);
    writeFileSync(csv, 'uid,question,answer\nUID9001,say "hi",1\n');
    expect(materialize(rawArguments(temporaryDirectory(), { csv })).stderr).toMatch(/line 2: a quote inside an unquoted field/);
    writeFileSync(csv, 'uid,question,answer\nUID9001,q,1,extra\n');
    expect(materialize(rawArguments(temporaryDirectory(), { csv })).stderr).toMatch(/line 2: 4 fields, but the header has 3/);
    writeFileSync(csv, 'uid,question,answer\nUID9001,q,1\r\nUID9001,q,2\r\n');
    expect(materialize(rawArguments(temporaryDirectory(), { csv })).stderr).toMatch(/line 3: uid UID9001 appears twice \(first on line 2\)/);
    writeFileSync(csv, 'id,question\nUID9001,q\n');
    expect(materialize(rawArguments(temporaryDirectory(), { csv })).stderr).toMatch(/no "answer" or "ground_truth" column/);
  });

  it('rejects an id listed in two manifest splits', () => {
    const raw = rawCopy();
    const val = path.join(raw, 'manifest', 'val', 'items.json');
    writeFileSync(val, JSON.stringify([{ id: 'UID9001', source_files: 'ledger_bulletin_1999_05.txt' }]));
    const run = materialize(rawArguments(temporaryDirectory(), { manifest: path.join(raw, 'manifest') }));
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/index 0: id UID9001 is also in the train manifest/);
  });

  it('explains its arguments', () => {
    expect(materialize(['--help'])).toMatchObject({ status: 0, stdout: expect.stringContaining('usage: node tools/materialize-officeqa/materialize.mjs') });
    const missing = materialize(['--csv', 'x.csv']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/missing --jsons, --manifest-dir, --out/);
    expect(materialize(['--csv=x', '--bogus', 'y']).stderr).toMatch(/unknown argument --bogus/);
  });
});
