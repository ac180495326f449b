#!/usr/bin/env node
// Builds a runnable OfficeQA split for @skillopt/env-officeqa from the raw benchmark files a user
// downloaded (the gated `officeqa_full.csv` and the parsed-document folder `jsons/`), keeping
// exactly the items of a split manifest (the paper's: datasets/officeqa/paper-split).
//
//   node tools/materialize-officeqa/materialize.mjs \
//     --csv ~/officeqa/officeqa_full.csv --jsons ~/officeqa/jsons \
//     --manifest-dir datasets/officeqa/paper-split --out data/officeqa_split
//
// Output: <out>/{train,val,test}/items.json, <out>/corpus/<document>.txt (each document rendered
// from its JSON to page-marked text, HTML tables as markdown tables) and <out>/split_manifest.json.
// Then: env.split_dir=<out>, env.corpus_dir=<out>/corpus. No dependencies beyond Node 20.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MaterializeError, parseCsv } from '../materialize-common/csv.mjs';

export { MaterializeError, parseCsv };

export const SPLITS = ['train', 'val', 'test'];

/** CSV text as objects keyed by the header row; every record must have the header's number of fields. */
export function readCsvObjects(text, source = 'CSV') {
  const [header, ...rows] = parseCsv(text, source);
  if (header === undefined) throw new MaterializeError(`${source}: the file is empty`);
  const names = header.fields.map((name) => name.trim());
  const seen = new Set();
  for (const name of names) {
    if (name === '') throw new MaterializeError(`${source} line 1: a column has no name`);
    if (seen.has(name)) throw new MaterializeError(`${source} line 1: the column "${name}" appears twice`);
    seen.add(name);
  }
  return {
    columns: names,
    rows: rows.map((row) => {
      if (row.fields.length !== names.length)
        throw new MaterializeError(`${source} line ${row.line}: ${row.fields.length} fields, but the header has ${names.length}`);
      return { line: row.line, values: Object.fromEntries(names.map((name, column) => [name, row.fields[column]])) };
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Parsed documents: `jsons/<stem>.json` with `document.elements[]`, each element's `content`
// (text, or an HTML table) and `bbox[].page_id`. Rendered to text, page by page.

const NAMED_ENTITIES = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  minus: '−',
  hellip: '…',
  middot: '·',
  deg: '°',
  times: '×',
  sect: '§',
  copy: '©',
  reg: '®',
};

export function unescapeHtml(text) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity) => {
    if (entity[0] === '#') {
      const code = entity[1] === 'x' || entity[1] === 'X' ? Number.parseInt(entity.slice(2), 16) : Number.parseInt(entity.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[entity.toLowerCase()] ?? whole;
  });
}

function cellText(html) {
  return unescapeHtml(html.replace(/<br\s*\/?>/gi, ' ').replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\|/g, '\\|');
}

/** An HTML table as a markdown table (first row = header; pipes escaped; spans ignored), or undefined without rows. */
export function htmlTableToMarkdown(html) {
  const rows = [...html.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/gi)].map((row) =>
    [...row[1].matchAll(/<t[hd]\b[^>]*>([\s\S]*?)<\/t[hd]>/gi)].map((cell) => cellText(cell[1])),
  );
  const filled = rows.filter((row) => row.length > 0);
  if (filled.length === 0) return undefined;
  const width = Math.max(...filled.map((row) => row.length));
  const line = (cells) => `| ${[...cells, ...Array(width - cells.length).fill('')].join(' | ')} |`;
  return [line(filled[0]), line(Array(width).fill('---')), ...filled.slice(1).map(line)].join('\n');
}

function elementPage(element) {
  const boxes = Array.isArray(element.bbox) ? element.bbox : element.bbox ? [element.bbox] : [];
  const fromBox = boxes.find((box) => box && box.page_id !== undefined)?.page_id;
  return fromBox ?? element.page_id ?? element.page;
}

function elementText(element) {
  const content = typeof element.content === 'string' ? element.content : typeof element.text === 'string' ? element.text : '';
  if (/<table[\s>]/i.test(content)) {
    const table = htmlTableToMarkdown(content);
    if (table !== undefined) return table;
  }
  return unescapeHtml(content.replace(/<br\s*\/?>/gi, '\n').replace(/<\/?(?:p|div|span|b|i|u|strong|em|h[1-6])\b[^>]*>/gi, ''))
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A parsed document (the JSON's value) as text: `=== page N ===` before each page's elements, elements separated by blank lines. */
export function renderParsedDocument(parsed, source = 'document') {
  const elements = parsed?.document?.elements ?? parsed?.elements;
  if (!Array.isArray(elements)) throw new MaterializeError(`${source}: no document.elements array`);
  const parts = [];
  let currentPage;
  for (const element of elements) {
    if (element === null || typeof element !== 'object') continue;
    const text = elementText(element);
    if (text === '') continue;
    const page = elementPage(element);
    if (page !== undefined && page !== currentPage) {
      parts.push(`=== page ${page} ===`);
      currentPage = page;
    }
    parts.push(text);
  }
  return `${parts.join('\n\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// Lists and the manifest

/** A list field: a JSON array (or its text), newline-separated text, comma-separated text, or one value. */
export function parseList(value) {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map((entry) => String(entry).trim()).filter(Boolean);
  const text = String(value).trim();
  if (text === '') return [];
  if (text.startsWith('[')) {
    try {
      const parsed = JSON.parse(text);
      if (Array.isArray(parsed)) return parseList(parsed);
    } catch {
      // read as text
    }
  }
  const lines = text.split(/\r?\n/);
  return (lines.length > 1 ? lines : text.split(',')).map((entry) => entry.trim()).filter(Boolean);
}

function readJsonFile(file, what) {
  if (!existsSync(file)) throw new MaterializeError(`${what} not found: ${file}`);
  try {
    return JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new MaterializeError(`${what} ${file} is not valid JSON: ${error.message}`);
  }
}

/** The manifest's items per split, checked: arrays of objects with unique ids across the splits. */
export function readManifest(manifestDirectory) {
  const splits = {};
  const seen = new Map();
  for (const split of SPLITS) {
    const file = path.join(manifestDirectory, split, 'items.json');
    const items = readJsonFile(file, `the ${split} manifest`);
    if (!Array.isArray(items)) throw new MaterializeError(`${file}: expected a JSON array of items`);
    splits[split] = items.map((item, index) => {
      const id = String(item?.id ?? item?.uid ?? '').trim();
      if (id === '') throw new MaterializeError(`${file} index ${index}: the item has no id`);
      if (seen.has(id)) throw new MaterializeError(`${file} index ${index}: id ${id} is also in the ${seen.get(id)} manifest`);
      seen.set(id, split);
      return { ...item, id };
    });
  }
  return splits;
}

function pick(values, ...names) {
  for (const name of names) if (values[name] !== undefined && String(values[name]).trim() !== '') return String(values[name]).trim();
  return undefined;
}

function documentNameProblem(name) {
  if (name.includes('\0') || name.includes('\\')) return 'contains a NUL or a backslash';
  if (path.posix.isAbsolute(name) || /^[a-zA-Z]:/.test(name)) return 'is an absolute path';
  if (name.split('/').includes('..')) return 'contains ".."';
  return undefined;
}

/**
 * Materializes the split. Returns what was written. Every problem found in the inputs is a
 * MaterializeError listing all the offending ids or documents at once.
 */
export function materialize({ csv, jsons, manifestDir, out }) {
  const manifest = readManifest(manifestDir);
  if (!existsSync(csv)) throw new MaterializeError(`the CSV was not found: ${csv}`);
  const table = readCsvObjects(readFileSync(csv, 'utf8'), csv);
  for (const required of [['uid', 'id'], ['question'], ['answer', 'ground_truth']]) {
    if (!required.some((name) => table.columns.includes(name)))
      throw new MaterializeError(`${csv}: no ${required.map((name) => `"${name}"`).join(' or ')} column (columns: ${table.columns.join(', ')})`);
  }
  const rowsById = new Map();
  for (const row of table.rows) {
    const id = pick(row.values, 'uid', 'id');
    if (id === undefined) throw new MaterializeError(`${csv} line ${row.line}: the row has no uid`);
    if (rowsById.has(id)) throw new MaterializeError(`${csv} line ${row.line}: uid ${id} appears twice (first on line ${rowsById.get(id).line})`);
    rowsById.set(id, row);
  }

  const missingIds = SPLITS.flatMap((split) => manifest[split].filter((item) => !rowsById.has(item.id)).map((item) => `${item.id} (${split})`));
  if (missingIds.length > 0)
    throw new MaterializeError(
      `${missingIds.length} id${missingIds.length === 1 ? '' : 's'} of the manifest ${missingIds.length === 1 ? 'is' : 'are'} not in ${csv}: ${missingIds.join(', ')}`,
    );

  const output = {};
  const neededBy = new Map();
  for (const split of SPLITS) {
    output[split] = manifest[split].map((entry) => {
      const row = rowsById.get(entry.id);
      const question = pick(row.values, 'question');
      const answer = pick(row.values, 'answer', 'ground_truth');
      if (question === undefined || answer === undefined)
        throw new MaterializeError(`${csv} line ${row.line}: uid ${entry.id} has no ${question === undefined ? 'question' : 'answer'}`);
      const sourceFiles = parseList(entry.source_files ?? row.values.source_files);
      if (sourceFiles.length === 0) throw new MaterializeError(`uid ${entry.id}: neither the manifest nor the CSV names its source_files`);
      for (const file of sourceFiles) {
        const problem = documentNameProblem(file);
        if (problem !== undefined) throw new MaterializeError(`uid ${entry.id}: source file "${file}" ${problem}`);
        neededBy.set(file, [...(neededBy.get(file) ?? []), entry.id]);
      }
      const category = pick(entry, 'category', 'difficulty') ?? pick(row.values, 'category', 'difficulty');
      const sourceDocs = parseList(entry.source_docs ?? row.values.source_docs);
      return {
        id: entry.id,
        uid: entry.id,
        question,
        answer,
        ...(category === undefined ? {} : { category: category.toLowerCase() }),
        source_files: sourceFiles,
        source_docs: sourceDocs,
      };
    });
  }

  const documentJson = (file) => path.join(jsons, `${path.posix.basename(file).replace(/\.[^.]*$/, '')}.json`);
  const missingDocuments = [...neededBy].filter(([file]) => !existsSync(documentJson(file)));
  if (missingDocuments.length > 0)
    throw new MaterializeError(
      `${missingDocuments.length} document${missingDocuments.length === 1 ? '' : 's'} missing from ${jsons}: ${missingDocuments
        .map(([file, ids]) => `${path.basename(documentJson(file))} (for ${file}, needed by ${ids.join(', ')})`)
        .join('; ')}`,
    );

  const corpus = path.join(out, 'corpus');
  mkdirSync(corpus, { recursive: true });
  for (const file of [...neededBy.keys()].sort()) {
    const source = documentJson(file);
    const text = renderParsedDocument(readJsonFile(source, 'the document'), source);
    const target = path.join(corpus, ...file.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text, 'utf8');
  }
  for (const split of SPLITS) {
    mkdirSync(path.join(out, split), { recursive: true });
    writeFileSync(path.join(out, split, 'items.json'), `${JSON.stringify(output[split], null, 2)}\n`, 'utf8');
  }
  const counts = Object.fromEntries(SPLITS.map((split) => [split, output[split].length]));
  writeFileSync(
    path.join(out, 'split_manifest.json'),
    `${JSON.stringify(
      {
        benchmark: 'OfficeQA',
        source_csv: path.basename(csv),
        source_manifest_dir: manifestDir,
        counts,
        documents: neededBy.size,
        corpus_dir: 'corpus',
        item_fields: ['id', 'uid', 'question', 'answer', 'category', 'source_files', 'source_docs'],
      },
      null,
      2,
    )}\n`,
    'utf8',
  );
  return { counts, documents: neededBy.size, out, corpus };
}

// ---------------------------------------------------------------------------------------------
// Command line

const USAGE = `usage: node tools/materialize-officeqa/materialize.mjs --csv <officeqa_full.csv> --jsons <jsons dir> --manifest-dir <split manifest dir> --out <output dir>

  --csv           the OfficeQA question file (columns uid, question, answer; optional
                  source_files, source_docs, difficulty)
  --jsons         the folder of parsed documents, <stem>.json for each source file
  --manifest-dir  a split manifest: {train,val,test}/items.json (e.g. datasets/officeqa/paper-split)
  --out           where the split is written (<split>/items.json, corpus/, split_manifest.json)`;

const OPTIONS = { '--csv': 'csv', '--jsons': 'jsons', '--manifest-dir': 'manifestDir', '--out': 'out' };

export function parseArguments(argv) {
  const options = {};
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === '--help' || argument === '-h') return { help: true };
    const [flag, inline] = argument.includes('=')
      ? [argument.slice(0, argument.indexOf('=')), argument.slice(argument.indexOf('=') + 1)]
      : [argument, undefined];
    const key = OPTIONS[flag];
    if (key === undefined) throw new MaterializeError(`unknown argument ${argument}\n${USAGE}`);
    const value = inline ?? argv[(index += 1)];
    if (value === undefined || value === '') throw new MaterializeError(`${flag} needs a value\n${USAGE}`);
    options[key] = path.resolve(value);
  }
  const missing = Object.entries(OPTIONS)
    .filter(([, key]) => options[key] === undefined)
    .map(([flag]) => flag);
  if (missing.length > 0) throw new MaterializeError(`missing ${missing.join(', ')}\n${USAGE}`);
  return options;
}

function main() {
  try {
    const options = parseArguments(process.argv.slice(2));
    if (options.help) {
      console.log(USAGE);
      return;
    }
    const result = materialize(options);
    console.log(
      `wrote ${SPLITS.map((split) => `${result.counts[split]} ${split}`).join(', ')} items and ${result.documents} documents to ${result.out}\n` +
        `use: env.split_dir=${result.out} env.corpus_dir=${result.corpus}`,
    );
  } catch (error) {
    if (error instanceof MaterializeError) {
      console.error(`materialize-officeqa: ${error.message}`);
      process.exitCode = 1;
      return;
    }
    throw error;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main();
