#!/usr/bin/env node
// Builds a runnable DocVQA split directory for @skillopt/env-docvqa from the raw DocVQA question
// CSV(s) with page images and the paper's id manifest (datasets/docvqa/paper-split).
//
//   node tools/materialize-docvqa/materialize.mjs --csv <questions.csv> [--csv <more.csv>] \
//     --images <page-image dir> --out <split dir> [--manifest-dir <dir>] [--overwrite]
//
// Writes <out>/{train,val,test}/items.json (the manifest's order), <out>/images/<page files> (copies)
// and <out>/split_manifest.json. Every problem (an id the CSVs lack, a page image that cannot be
// found, a row without a gold answer) is reported at once, and nothing is written.
// Only Node's built-ins are used, so it runs from a plain checkout without a build.
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MaterializeError, parseCsv } from '../materialize-common/csv.mjs';

export { MaterializeError, parseCsv };

const SPLITS = ['train', 'val', 'test'];
const TOOL_DIRECTORY = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_MANIFEST_DIR = path.resolve(TOOL_DIRECTORY, '..', '..', 'datasets', 'docvqa', 'paper-split');
const DOCUMENT_PATH_MARKER = 'document_path:';

/** Reads a CSV file with a header row into objects keyed by the (trimmed) column names. */
export function readCsvRows(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new MaterializeError(`cannot read the CSV ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  }
  let records;
  try {
    records = parseCsv(text);
  } catch (error) {
    throw new MaterializeError(`${file}: ${error.message}`);
  }
  records = records.filter((record) => !(record.fields.length === 1 && record.fields[0].trim() === ''));
  if (records.length === 0) throw new MaterializeError(`${file} is empty: expected a header row`);
  const header = records[0].fields.map((name) => name.trim());
  const rows = [];
  for (const record of records.slice(1)) {
    if (record.fields.length !== header.length) {
      throw new MaterializeError(`${file} line ${record.line}: ${record.fields.length} fields, but the header has ${header.length}`);
    }
    const row = {};
    header.forEach((name, column) => {
      row[name] = record.fields[column];
    });
    rows.push({ line: record.line, row });
  }
  return { header, rows };
}

// ---------------------------------------------------------------------------------------------
// Gold answers: the CSVs hold Python list literals such as "['1/8/93', '1/8/93']"; JSON lists,
// objects ({answers|ground_truth|answer}) and lists of objects ({text|answer|value}) are read too.

const SIMPLE_ESCAPES = { '\\': '\\', "'": "'", '"': '"', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', a: '\x07', '\n': '' };

/** Reads Python literals: strings (quotes, prefixes r/u, escapes), numbers, True/False/None, lists, tuples, dicts. */
export function parsePythonLiteral(text) {
  let position = 0;
  const fail = (what) => {
    throw new SyntaxError(`${what} at offset ${position}`);
  };
  const skipSpace = () => {
    while (position < text.length && /\s/.test(text[position])) position += 1;
  };
  const startsString = () => /^[rRuU]*['"]/.test(text.slice(position, position + 3));
  const readString = () => {
    let raw = false;
    while (/[rRuU]/.test(text[position] ?? '')) {
      if (/[rR]/.test(text[position])) raw = true;
      position += 1;
    }
    const quote = text[position];
    const closing = text.startsWith(quote.repeat(3), position) ? quote.repeat(3) : quote;
    position += closing.length;
    let value = '';
    for (;;) {
      if (position >= text.length) fail('unterminated string');
      if (text.startsWith(closing, position)) {
        position += closing.length;
        return value;
      }
      const character = text[position];
      if (closing.length === 1 && character === '\n') fail('line break inside a string');
      if (character !== '\\') {
        value += character;
        position += 1;
        continue;
      }
      const next = text[position + 1];
      if (next === undefined) fail('unterminated string');
      if (raw) {
        value += `\\${next}`;
        position += 2;
      } else if (next in SIMPLE_ESCAPES) {
        value += SIMPLE_ESCAPES[next];
        position += 2;
      } else if (next === 'x' || next === 'u' || next === 'U') {
        const length = next === 'x' ? 2 : next === 'u' ? 4 : 8;
        const digits = text.slice(position + 2, position + 2 + length);
        if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(digits)) fail(`bad \\${next} escape`);
        value += String.fromCodePoint(Number.parseInt(digits, 16));
        position += 2 + length;
      } else if (/[0-7]/.test(next)) {
        const octal = /^[0-7]{1,3}/.exec(text.slice(position + 1))[0];
        value += String.fromCodePoint(Number.parseInt(octal, 8));
        position += 1 + octal.length;
      } else {
        value += `\\${next}`;
        position += 2;
      }
    }
  };
  const readSequence = (close) => {
    position += 1;
    const values = [];
    for (;;) {
      skipSpace();
      if (text[position] === close) {
        position += 1;
        return values;
      }
      values.push(readValue());
      skipSpace();
      if (text[position] === ',') position += 1;
      else if (text[position] !== close) fail(`expected "," or "${close}"`);
    }
  };
  const readDict = () => {
    position += 1;
    const entries = {};
    for (;;) {
      skipSpace();
      if (text[position] === '}') {
        position += 1;
        return entries;
      }
      const key = readValue();
      skipSpace();
      if (text[position] !== ':') fail('expected ":"');
      position += 1;
      entries[String(key)] = readValue();
      skipSpace();
      if (text[position] === ',') position += 1;
      else if (text[position] !== '}') fail('expected "," or "}"');
    }
  };
  function readValue() {
    skipSpace();
    const character = text[position] ?? '';
    if (character === '[') return readSequence(']');
    if (character === '(') return readSequence(')');
    if (character === '{') return readDict();
    if (startsString()) {
      let value = readString();
      for (;;) {
        const before = position;
        skipSpace();
        if (!startsString()) {
          position = before;
          return value;
        }
        value += readString();
      }
    }
    const word = /^(True|False|None)\b/.exec(text.slice(position));
    if (word) {
      position += word[0].length;
      return word[0] === 'True' ? true : word[0] === 'False' ? false : null;
    }
    const number = /^[-+]?(\d[\d_]*(\.\d*)?|\.\d+)([eE][-+]?\d+)?/.exec(text.slice(position));
    if (number) {
      position += number[0].length;
      return Number(number[0].replace(/_/g, ''));
    }
    return fail('unexpected character');
  }
  const value = readValue();
  skipSpace();
  if (position !== text.length) fail('unexpected text after the literal');
  return value;
}

function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function flattenAnswers(value, depth = 0) {
  if (depth > 8 || value === null || value === undefined) return [];
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
      for (const parse of [JSON.parse, parsePythonLiteral]) {
        try {
          return flattenAnswers(parse(trimmed), depth + 1);
        } catch {
          // try the next reading; a string that is neither is one answer
        }
      }
    }
    return [value];
  }
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (Array.isArray(value)) {
    return value.flatMap((entry) => {
      if (!isRecord(entry)) return flattenAnswers(entry, depth + 1);
      const key = ['text', 'answer', 'value'].find((name) => entry[name] !== undefined && entry[name] !== null);
      return key === undefined ? [] : flattenAnswers(entry[key], depth + 1);
    });
  }
  if (isRecord(value)) {
    const key = ['answers', 'ground_truth', 'answer'].find((name) => value[name] !== undefined && value[name] !== null);
    return key === undefined ? [] : flattenAnswers(value[key], depth + 1);
  }
  return [];
}

/** The gold answers of a cell as trimmed strings, blanks and exact duplicates dropped, order kept. */
export function parseGoldAnswers(value) {
  const answers = [];
  for (const answer of flattenAnswers(value)) {
    const trimmed = answer.trim();
    if (trimmed !== '' && !answers.includes(trimmed)) answers.push(trimmed);
  }
  return answers;
}

// ---------------------------------------------------------------------------------------------
// The manifest and the question rows.

function readManifest(manifestDirectory) {
  const splits = {};
  const splitOf = new Map();
  for (const split of SPLITS) {
    const file = path.join(manifestDirectory, split, 'items.json');
    let items;
    try {
      items = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new MaterializeError(`cannot read the manifest split ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
    }
    if (!Array.isArray(items)) throw new MaterializeError(`${file}: expected a JSON array of {id, …}`);
    splits[split] = items.map((item, index) => {
      const id = isRecord(item) && (typeof item.id === 'string' || typeof item.id === 'number') ? String(item.id).trim() : '';
      if (id === '') throw new MaterializeError(`${file} index ${index}: no id`);
      const earlier = splitOf.get(id);
      if (earlier !== undefined) throw new MaterializeError(`the manifest lists id ${id} twice (in ${earlier} and in ${split})`);
      splitOf.set(id, split);
      return { ...item, id };
    });
  }
  return splits;
}

const pick = (row, ...names) => {
  for (const name of names) {
    const value = row[name];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
};

function indexQuestionRows(csvFiles) {
  const byId = new Map();
  for (const file of csvFiles) {
    const { header, rows } = readCsvRows(file);
    if (!header.includes('question')) throw new MaterializeError(`${file}: no "question" column (columns: ${header.join(', ')})`);
    if (!header.includes('questionId') && !header.includes('id'))
      throw new MaterializeError(`${file}: no "questionId" or "id" column (columns: ${header.join(', ')})`);
    if (!['answers', 'answer', 'ground_truth'].some((name) => header.includes(name))) {
      throw new MaterializeError(`${file}: no "answer", "answers" or "ground_truth" column (columns: ${header.join(', ')})`);
    }
    for (const { line, row } of rows) {
      const id = pick(row, 'questionId', 'id');
      if (id === undefined) throw new MaterializeError(`${file} line ${line}: the row has no questionId`);
      const earlier = byId.get(id);
      if (earlier !== undefined) throw new MaterializeError(`questionId ${id} appears twice: ${earlier.where} and ${file} line ${line}`);
      byId.set(id, { row, where: `${file} line ${line}` });
    }
  }
  return byId;
}

function isFile(file) {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function findImage(imagesDirectory, rowImagePath, manifestImagePath) {
  const candidates = [];
  for (const given of [rowImagePath, manifestImagePath]) {
    if (given === undefined || given === '') continue;
    if (path.isAbsolute(given)) candidates.push(given);
    candidates.push(path.resolve(imagesDirectory, given), path.join(imagesDirectory, path.basename(given)));
  }
  return { found: candidates.find(isFile), tried: [...new Set(candidates)] };
}

const shortList = (values, limit = 10) => `${values.slice(0, limit).join(', ')}${values.length > limit ? `, and ${values.length - limit} more` : ''}`;

/**
 * Builds the split directory. Options: `csv` (file paths), `images` (directory), `manifestDir`,
 * `out`, `overwrite`. Returns `{counts, out}`; throws a MaterializeError listing every problem.
 */
export function materialize({ csv, images, manifestDir = DEFAULT_MANIFEST_DIR, out, overwrite = false }) {
  if (!existsSync(images) || !statSync(images).isDirectory()) throw new MaterializeError(`--images ${images} is not a directory`);
  const manifest = readManifest(manifestDir);
  const rows = indexQuestionRows(csv);
  const missingIds = [];
  const missingImages = [];
  const noAnswers = [];
  const splits = {};
  const copies = new Map();
  for (const split of SPLITS) {
    splits[split] = [];
    for (const entry of manifest[split]) {
      const found = rows.get(entry.id);
      if (found === undefined) {
        missingIds.push(`${entry.id} (${split})`);
        continue;
      }
      const { row, where } = found;
      let question = row.question ?? '';
      let documentPath;
      const at = question.lastIndexOf(DOCUMENT_PATH_MARKER);
      if (at !== -1) {
        documentPath = question.slice(at + DOCUMENT_PATH_MARKER.length).trim() || undefined;
        question = question.slice(0, at);
      }
      question = question.trim();
      const answers = parseGoldAnswers(pick(row, 'answers', 'answer', 'ground_truth'));
      if (answers.length === 0 || question === '') {
        noAnswers.push(`${entry.id} (${where}: ${question === '' ? 'no question' : 'no gold answer'})`);
        continue;
      }
      const image = findImage(images, pick(row, 'image_path') ?? documentPath, typeof entry.image_path === 'string' ? entry.image_path : undefined);
      if (image.found === undefined) {
        missingImages.push(`${entry.id} (looked for ${image.tried.join(', ')})`);
        continue;
      }
      const stem = typeof entry.image_path === 'string' && entry.image_path !== '' ? path.parse(entry.image_path).name : `q${entry.id}`;
      const name = `${stem}${path.extname(image.found).toLowerCase()}`;
      const earlierSource = copies.get(name);
      if (earlierSource !== undefined && earlierSource !== image.found) {
        throw new MaterializeError(`two different page images would both be written as images/${name}: ${earlierSource} and ${image.found}`);
      }
      copies.set(name, image.found);
      const item = { id: entry.id, questionId: pick(row, 'questionId') ?? entry.id, question, answers, image_path: `images/${name}` };
      const labels = {
        docId: entry.docId ?? pick(row, 'docId'),
        topic: entry.topic ?? pick(row, 'topic', 'category'),
        ucsf_document_id: entry.ucsf_document_id ?? pick(row, 'ucsf_document_id'),
        ucsf_document_page_no: entry.ucsf_document_page_no ?? pick(row, 'ucsf_document_page_no'),
        source_split: entry.source_split ?? pick(row, 'source_split'),
      };
      for (const [key, value] of Object.entries(labels))
        if (value !== undefined && value !== null && String(value).trim() !== '') item[key] = String(value).trim();
      splits[split].push(item);
    }
  }
  const problems = [];
  if (missingIds.length > 0) problems.push(`${missingIds.length} manifest id(s) are not in the CSV: ${shortList(missingIds)}`);
  if (missingImages.length > 0) problems.push(`${missingImages.length} page image(s) were not found under ${images}: ${shortList(missingImages, 5)}`);
  if (noAnswers.length > 0) problems.push(`${noAnswers.length} row(s) cannot be used: ${shortList(noAnswers)}`);
  if (problems.length > 0) throw new MaterializeError(`nothing was written:\n  - ${problems.join('\n  - ')}`);

  const existing = [...SPLITS.map((split) => path.join(out, split, 'items.json')), path.join(out, 'split_manifest.json')].filter(existsSync);
  if (existing.length > 0 && !overwrite)
    throw new MaterializeError(`${out} already holds a split (${existing.map((file) => path.relative(out, file)).join(', ')}); pass --overwrite to replace it`);
  mkdirSync(path.join(out, 'images'), { recursive: true });
  for (const [name, source] of copies) copyFileSync(source, path.join(out, 'images', name));
  for (const split of SPLITS) {
    mkdirSync(path.join(out, split), { recursive: true });
    writeFileSync(path.join(out, split, 'items.json'), `${JSON.stringify(splits[split], null, 2)}\n`);
  }
  const counts = Object.fromEntries(SPLITS.map((split) => [split, splits[split].length]));
  writeFileSync(
    path.join(out, 'split_manifest.json'),
    `${JSON.stringify(
      {
        source_manifest_dir: manifestDir,
        source_csv: csv,
        source_images: images,
        counts,
        images: copies.size,
        item_fields: ['id', 'questionId', 'question', 'answers', 'image_path', 'docId', 'topic', 'ucsf_document_id', 'ucsf_document_page_no', 'source_split'],
        created_by: 'tools/materialize-docvqa/materialize.mjs',
      },
      null,
      2,
    )}\n`,
  );
  return { counts, out, images: copies.size };
}

// ---------------------------------------------------------------------------------------------
// The command line.

export const USAGE = `Usage: node tools/materialize-docvqa/materialize.mjs --csv <questions.csv> [--csv <more.csv>]
         --images <page-image dir> --out <split dir> [--manifest-dir <dir>] [--overwrite]

  --csv           a DocVQA question CSV (columns questionId or id, question, answer / answers /
                  ground_truth, and optionally image_path, docId, topic or category, …); repeatable
  --images        the directory holding the page images; a row's image_path (or the question's
                  document_path: suffix) and the manifest's image_path are looked up relative to it,
                  then by file name
  --out           where to write <split>/items.json, images/ and split_manifest.json
  --manifest-dir  the id manifest (default: datasets/docvqa/paper-split)
  --overwrite     replace a split already in --out`;

export function parseArguments(argv) {
  const options = { csv: [], overwrite: false };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === '--help' || argument === '-h') return { help: true };
    if (argument === '--overwrite') {
      options.overwrite = true;
      continue;
    }
    const match = /^--(csv|images|out|manifest-dir)(?:=(.*))?$/.exec(argument);
    if (!match) throw new MaterializeError(`unknown argument ${argument}\n\n${USAGE}`, 2);
    const value = match[2] ?? argv[(index += 1)];
    if (value === undefined || value === '') throw new MaterializeError(`--${match[1]} needs a value\n\n${USAGE}`, 2);
    if (match[1] === 'csv') options.csv.push(path.resolve(value));
    else if (match[1] === 'manifest-dir') options.manifestDir = path.resolve(value);
    else options[match[1]] = path.resolve(value);
  }
  const missing = [options.csv.length === 0 ? '--csv' : undefined, options.images ? undefined : '--images', options.out ? undefined : '--out'].filter(Boolean);
  if (missing.length > 0) throw new MaterializeError(`missing ${missing.join(', ')}\n\n${USAGE}`, 2);
  return options;
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  try {
    const options = parseArguments(process.argv.slice(2));
    if (options.help) {
      console.log(USAGE);
    } else {
      const { counts, out, images } = materialize(options);
      console.log(`wrote ${out}: ${counts.train} train, ${counts.val} val, ${counts.test} test items; ${images} page images`);
    }
  } catch (error) {
    if (!(error instanceof MaterializeError)) throw error;
    console.error(`error: ${error.message}`);
    process.exitCode = error.exitCode;
  }
}
