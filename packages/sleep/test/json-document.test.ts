import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readJsonDocument } from '../src/sources/devin/json-document.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'json-document-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const file = path.join(folder, name);
  writeFileSync(file, text);
  return file;
}

describe('a JSON document read whole under a size cap', () => {
  it('parses a document, a leading byte-order mark included, and counts its bytes', async () => {
    const file = write('ok.json', '\uFEFF{"schema_version":"ATIF-v1.7"}');
    expect(await readJsonDocument(file)).toEqual({ kind: 'parsed', value: { schema_version: 'ATIF-v1.7' }, bytesRead: 33 });
  });

  it('does not read a file over the cap', async () => {
    const file = write('big.json', JSON.stringify({ steps: 'x'.repeat(2000) }));
    expect(await readJsonDocument(file, 1024)).toEqual({ kind: 'too-large', bytes: 2012 });
  });

  it('states the line where the JSON breaks', async () => {
    const file = write('cut.json', '{\n  "a": 1,\n  "b": [1, 2,,]\n}');
    const document = await readJsonDocument(file);
    expect(document).toMatchObject({ kind: 'corrupt', line: 3, bytesRead: 29 });
    expect(document.kind === 'corrupt' && document.message.startsWith('not JSON: ')).toBe(true);
    expect(await readJsonDocument(write('text.json', 'plain words'))).toMatchObject({ kind: 'corrupt', line: 1 });
  });
});
