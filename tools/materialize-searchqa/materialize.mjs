#!/usr/bin/env node
// Builds a runnable SearchQA split directory from the dataset's rows, exported as JSON Lines (one
// row per line with the dataset's `key`, `question`, `context` and `answers` columns, as in
// lucadiliello/searchqa), and a split manifest of ids (the paper's, in datasets/searchqa/paper-split,
// by default; each id is a row's `key`). The output is what @skillopt/env-searchqa loads with
// `split_mode: split_dir`:
//
//   <out>/train/items.json, <out>/val/items.json, <out>/test/items.json, <out>/split_manifest.json
//
// Each item has exactly {id, question, context, answers}, in the manifest's order. The rows are read
// as a stream, so the whole dataset (every split of it, in one or several files) can be given.
//
// Usage: node tools/materialize-searchqa/materialize.mjs --rows <file-or-dir> [--rows …] --out <dir> [--manifest-dir <dir>]
// Exit status: 0 written; 1 the data is incomplete or malformed (nothing is written); 2 bad usage.
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { MaterializeError } from '../materialize-common/csv.mjs';
import { listSome, readJsonFile, readPaperManifest, SPLITS, writeJsonAtomically } from '../materialize-common/paper-split.mjs';

const ROW_FILE = /\.(jsonl|ndjson)$/i;
const ITEM_FIELDS = ['id', 'question', 'context', 'answers'];
const DEFAULT_MANIFEST_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'datasets', 'searchqa', 'paper-split');
const USAGE = `Usage: node tools/materialize-searchqa/materialize.mjs --rows <file-or-dir> [--rows …] --out <dir> [--manifest-dir <dir>]

  --rows          a .jsonl file of dataset rows ({key, question, context, answers, …} per line), or a
                  directory whose .jsonl files are all read; repeat it for several (train, validation, …)
  --out           where to write <split>/items.json and split_manifest.json
  --manifest-dir  the id split to materialize (default: ${path.relative(process.cwd(), DEFAULT_MANIFEST_DIR) || '.'})`;

function parseArguments(argv) {
  const rows = [];
  const options = {};
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === '--help' || argument === '-h') return { help: true };
    const match = /^--(rows|out|manifest-dir)(?:=(.*))?$/.exec(argument);
    if (!match) throw new Error(`unknown argument ${JSON.stringify(argument)}`);
    const value = match[2] ?? argv[++index];
    if (value === undefined || value === '') throw new Error(`--${match[1]} needs a value`);
    if (match[1] === 'rows') rows.push(path.resolve(value));
    else options[match[1]] = value;
  }
  if (rows.length === 0) throw new Error('--rows is required');
  if (!options.out) throw new Error('--out is required');
  return { rows, out: path.resolve(options.out), manifestDir: path.resolve(options['manifest-dir'] ?? DEFAULT_MANIFEST_DIR) };
}

function rowFiles(inputs) {
  const files = [];
  for (const input of inputs) {
    if (!existsSync(input)) throw new MaterializeError(`--rows ${input} does not exist`);
    if (statSync(input).isDirectory()) {
      const inside = readdirSync(input)
        .filter((name) => ROW_FILE.test(name))
        .sort();
      if (inside.length === 0) throw new MaterializeError(`--rows ${input} holds no .jsonl file`);
      files.push(...inside.map((name) => path.join(input, name)));
    } else files.push(input);
  }
  return files;
}

/** The item for one row, or a reason it cannot be one. */
function itemFromRow(row, id) {
  const problems = [];
  if (typeof row.question !== 'string' || row.question.trim() === '') problems.push('question is missing or blank');
  const answers = typeof row.answers === 'string' ? [row.answers] : row.answers;
  if (!Array.isArray(answers) || answers.length === 0) problems.push('answers must be a non-empty list');
  else if (answers.some((answer) => typeof answer !== 'string' || answer.trim() === '')) problems.push('every answer must be a non-blank text');
  if (row.context !== undefined && row.context !== null && typeof row.context !== 'string') problems.push('context must be a text');
  if (problems.length > 0) return { problems };
  return { item: { id, question: row.question, context: typeof row.context === 'string' ? row.context : '', answers } };
}

async function collectRows(files, wanted) {
  const found = new Map();
  const problems = [];
  for (const file of files) {
    const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
    let lineNumber = 0;
    for await (const rawLine of lines) {
      lineNumber += 1;
      const line = lineNumber === 1 && rawLine.charCodeAt(0) === 0xfeff ? rawLine.slice(1) : rawLine;
      if (line.trim() === '') continue;
      let row;
      try {
        row = JSON.parse(line);
      } catch (error) {
        throw new MaterializeError(`${file} line ${lineNumber} is not valid JSON: ${error.message}`);
      }
      const key = row === null || typeof row !== 'object' ? undefined : row.key;
      if (typeof key !== 'string' || key === '') throw new MaterializeError(`${file} line ${lineNumber}: the row has no "key" (the id the manifest uses)`);
      if (!wanted.has(key)) continue;
      const where = `${path.basename(file)} line ${lineNumber}`;
      if (found.has(key)) throw new MaterializeError(`key ${key} appears twice in the rows: ${found.get(key).where} and ${where}`);
      const result = itemFromRow(row, key);
      if (result.problems) problems.push(`${key} (${where}): ${result.problems.join('; ')}`);
      found.set(key, { item: result.item, where });
    }
  }
  return { found, problems };
}

export async function materialize({ rows, out, manifestDir }) {
  const manifest = readPaperManifest(manifestDir);
  const files = rowFiles(rows);
  const { found, problems } = await collectRows(files, manifest.ids);
  const missing = [...manifest.ids.keys()].filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new MaterializeError(
      `${missing.length} of the manifest's ${manifest.ids.size} ids are missing from the rows (matched on "key"): ${listSome(missing)}.\n` +
        `Row files read (${files.length}): ${listSome(
          files.map((file) => path.basename(file)),
          8,
        )}.\n` +
        'Export every split of the dataset the manifest names (its split_manifest.json says which).',
    );
  }
  if (problems.length > 0) throw new MaterializeError(`${problems.length} manifest rows cannot be items:\n  ${problems.join('\n  ')}`);
  const counts = {};
  for (const split of SPLITS) {
    writeJsonAtomically(
      path.join(out, split, 'items.json'),
      manifest.splits[split].map((entry) => found.get(entry.id).item),
    );
    counts[split] = manifest.splits[split].length;
  }
  const sourceManifest = existsSync(path.join(manifestDir, 'split_manifest.json')) ? readJsonFile(path.join(manifestDir, 'split_manifest.json')) : {};
  writeJsonAtomically(path.join(out, 'split_manifest.json'), {
    benchmark: 'SearchQA',
    source_manifest_dir: manifestDir,
    ...(sourceManifest.source_repo ? { source_dataset: sourceManifest.source_repo } : {}),
    source_files: files,
    counts,
    item_fields: ITEM_FIELDS,
  });
  return { counts };
}

async function main() {
  let options;
  try {
    options = parseArguments(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`materialize-searchqa: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    const { counts } = await materialize(options);
    process.stdout.write(`Wrote ${counts.train} train, ${counts.val} val and ${counts.test} test items to ${options.out}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof MaterializeError)) throw error;
    process.stderr.write(`materialize-searchqa: ${error.message}\n`);
    return 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = await main();
