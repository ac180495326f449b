#!/usr/bin/env node
// Builds a runnable LiveMathematicianBench split directory from the benchmark's raw monthly files
// (`qa_<YYYYMM>_final.json`, downloaded by the user) and a split manifest of item ids (the paper's,
// in datasets/livemath/paper-split, by default). The output is what @skillopt/env-livemath loads
// with `split_mode: split_dir`:
//
//   <out>/train/items.json, <out>/val/items.json, <out>/test/items.json, <out>/split_manifest.json
//
// Each item is written in the normalized form {id, month, no, paper_link, theorem, sketch,
// theorem_type[], question, choices[{label, text}], correct_choice{label, text}, source_path}, in
// the manifest's order, choices in their stored order (the env shuffles them when it loads).
//
// Usage: node tools/materialize-livemath/materialize.mjs --raw-dir <dir> --out <dir> [--manifest-dir <dir>]
// Exit status: 0 written; 1 the data is incomplete or malformed (nothing is written); 2 bad usage.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MaterializeError } from '../materialize-common/csv.mjs';
import { listSome, readJsonFile, readPaperManifest, SPLITS, writeJsonAtomically } from '../materialize-common/paper-split.mjs';

const LABELS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const MONTHLY_FILE = /^qa_(\d{6})_final\.json$/;
const DEFAULT_MANIFEST_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'datasets', 'livemath', 'paper-split');
const USAGE = `Usage: node tools/materialize-livemath/materialize.mjs --raw-dir <dir> --out <dir> [--manifest-dir <dir>]

  --raw-dir       a directory holding the benchmark's monthly qa_<YYYYMM>_final.json files
                  (searched recursively, e.g. the dataset's data/ folder)
  --out           where to write <split>/items.json and split_manifest.json
  --manifest-dir  the id split to materialize (default: ${path.relative(process.cwd(), DEFAULT_MANIFEST_DIR) || '.'})`;

function parseArguments(argv) {
  const options = {};
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === '--help' || argument === '-h') return { help: true };
    const match = /^--(raw-dir|out|manifest-dir)(?:=(.*))?$/.exec(argument);
    if (!match) throw new Error(`unknown argument ${JSON.stringify(argument)}`);
    const value = match[2] ?? argv[++index];
    if (value === undefined || value === '') throw new Error(`--${match[1]} needs a value`);
    options[match[1]] = value;
  }
  if (!options['raw-dir']) throw new Error('--raw-dir is required');
  if (!options.out) throw new Error('--out is required');
  return {
    rawDir: path.resolve(options['raw-dir']),
    out: path.resolve(options.out),
    manifestDir: path.resolve(options['manifest-dir'] ?? DEFAULT_MANIFEST_DIR),
  };
}

function findMonthlyFiles(directory) {
  const found = [];
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && MONTHLY_FILE.test(entry.name)) found.push(full);
    }
  };
  walk(directory);
  return found.sort();
}

/** The rows of one monthly file: a JSON array, or an object holding them under `data`, or an object of rows. */
function monthlyRows(file) {
  const parsed = readJsonFile(file);
  if (Array.isArray(parsed)) return parsed;
  if (parsed !== null && typeof parsed === 'object') return Array.isArray(parsed.data) ? parsed.data : Object.values(parsed);
  throw new MaterializeError(`${file} must hold a JSON array of rows`);
}

/** "b." → "B", "(C)" → "C"; undefined unless a single letter is left. */
function normaliseLabel(value) {
  if (typeof value !== 'string') return undefined;
  const letter = value
    .trim()
    .toUpperCase()
    .replace(/^[([]+\s*/, '')
    .replace(/\s*[.)\]:]+$/, '')
    .trim();
  return /^[A-Z]$/.test(letter) ? letter : undefined;
}

const looseText = (text) => text.trim().replace(/\s+/g, ' ').toLowerCase();
const asText = (value) => (typeof value === 'number' ? String(value) : value);

/** The choices in any of the three raw forms, as [{label, text}], or a list of problems. */
function normaliseChoices(value, problems) {
  let entries;
  let sort = false;
  if (Array.isArray(value)) {
    entries = value.map((entry, index) =>
      typeof entry === 'string' || typeof entry === 'number'
        ? { label: LABELS[index], text: String(entry) }
        : entry !== null && typeof entry === 'object'
          ? { label: entry.label ?? LABELS[index], text: asText(entry.text ?? entry.content) }
          : { label: LABELS[index], text: undefined },
    );
  } else if (value !== null && typeof value === 'object') {
    entries = Object.entries(value).map(([label, text]) => ({ label, text: asText(text) }));
    sort = true;
  } else {
    problems.push('choices are missing or not a list/object');
    return [];
  }
  const choices = [];
  for (const entry of entries) {
    const label = normaliseLabel(entry.label);
    if (label === undefined) problems.push(`choice label ${JSON.stringify(entry.label)} is not a single letter`);
    else if (choices.some((choice) => choice.label === label)) problems.push(`choice label ${label} is used twice`);
    else if (typeof entry.text !== 'string' || entry.text.trim() === '') problems.push(`choice ${label} has no text`);
    else choices.push({ label, text: entry.text.trim() });
  }
  if (sort) choices.sort((left, right) => left.label.localeCompare(right.label));
  return choices;
}

function correctChoice(value, choices, problems) {
  let label;
  let text;
  if (typeof value === 'string') {
    label = normaliseLabel(value);
    if (label === undefined) text = value;
  } else if (value !== null && typeof value === 'object') {
    label = normaliseLabel(value.label);
    const given = value.text ?? value.content;
    if (typeof given === 'string' && given.trim() !== '') text = given.trim();
  } else {
    problems.push('correct_choice is missing');
    return undefined;
  }
  if (label !== undefined) {
    const found = choices.find((choice) => choice.label === label);
    if (found) return found;
    if (text !== undefined) {
      // The original's rule: a correct answer missing from the choices is added, and the choices re-sorted.
      const added = { label, text };
      choices.push(added);
      choices.sort((left, right) => left.label.localeCompare(right.label));
      return added;
    }
    problems.push(`the correct label ${label} is not one of the choices (${choices.map((choice) => choice.label).join(', ')})`);
    return undefined;
  }
  const byText = choices.filter((choice) => text !== undefined && looseText(choice.text) === looseText(text));
  if (byText.length === 1) return byText[0];
  problems.push(`correct_choice ${JSON.stringify(value)} names no choice`);
  return undefined;
}

/** One raw row in the normalized form, or a list of problems. */
function normaliseRow(row, id, month, sourcePath) {
  const problems = [];
  const mcq = row.mcq !== null && typeof row.mcq === 'object' ? row.mcq : {};
  const question = typeof (mcq.question ?? row.question) === 'string' ? (mcq.question ?? row.question).trim() : '';
  if (question === '') problems.push('the question is missing or blank');
  const choices = normaliseChoices(mcq.choices ?? row.choices, problems);
  const correct = choices.length > 0 ? correctChoice(mcq.correct_choice ?? row.correct_choice, choices, problems) : undefined;
  if (problems.length === 0 && choices.length < 2) problems.push('fewer than two choices');
  if (problems.length > 0) return { problems };
  const types = row.theorem_type === undefined || row.theorem_type === null ? [] : Array.isArray(row.theorem_type) ? row.theorem_type : [row.theorem_type];
  return {
    item: {
      id,
      month,
      no: row.no,
      paper_link: typeof row.paper_link === 'string' ? row.paper_link : '',
      theorem: typeof row.theorem === 'string' ? row.theorem : '',
      sketch: typeof row.sketch === 'string' ? row.sketch : '',
      theorem_type: types.filter((type) => typeof type === 'string' && type.trim() !== '').map((type) => type.trim()),
      question,
      choices,
      correct_choice: { label: correct.label, text: correct.text },
      source_path: sourcePath,
    },
  };
}

export function materialize({ rawDir, out, manifestDir }) {
  if (!existsSync(rawDir) || !statSync(rawDir).isDirectory()) throw new MaterializeError(`--raw-dir ${rawDir} is not a directory`);
  const manifest = readPaperManifest(manifestDir).splits;
  const files = findMonthlyFiles(rawDir);
  if (files.length === 0) throw new MaterializeError(`no qa_<YYYYMM>_final.json file under ${rawDir}; download the benchmark's monthly files first`);

  const rows = new Map();
  for (const file of files) {
    const fileMonth = MONTHLY_FILE.exec(path.basename(file))[1];
    monthlyRows(file).forEach((row, index) => {
      if (row === null || typeof row !== 'object') return;
      const month = row.month === undefined || row.month === null ? fileMonth : String(row.month).trim();
      if (row.no === undefined || row.no === null || String(row.no).trim() === '') return;
      const id = `${month}:${String(row.no).trim()}`;
      const where = `${path.relative(rawDir, file)} index ${index}`;
      if (rows.has(id)) throw new MaterializeError(`id ${id} appears twice in the raw files: ${rows.get(id).where} and ${where}`);
      rows.set(id, { row, month, where, sourcePath: path.relative(rawDir, file).split(path.sep).join('/') });
    });
  }

  const missing = [];
  const problems = [];
  const warnings = [];
  const output = {};
  for (const split of SPLITS) {
    output[split] = [];
    for (const entry of manifest[split]) {
      const found = rows.get(entry.id);
      if (found === undefined) {
        missing.push(entry.source_file ? `${entry.id} (from ${entry.source_file})` : entry.id);
        continue;
      }
      const normalised = normaliseRow(found.row, entry.id, found.month, found.sourcePath);
      if (normalised.problems) {
        problems.push(`${entry.id} (${found.where}): ${normalised.problems.join('; ')}`);
        continue;
      }
      if (typeof entry.paper_link === 'string' && normalised.item.paper_link !== '' && entry.paper_link !== normalised.item.paper_link) {
        warnings.push(`${entry.id}: the raw row links ${normalised.item.paper_link}, the manifest ${entry.paper_link}`);
      }
      output[split].push(normalised.item);
    }
  }
  if (missing.length > 0) {
    const total = SPLITS.reduce((sum, split) => sum + manifest[split].length, 0);
    throw new MaterializeError(
      `${missing.length} of the manifest's ${total} ids are missing from the raw files: ${listSome(missing)}.\n` +
        `Raw files read (${files.length}): ${listSome(
          files.map((file) => path.relative(rawDir, file)),
          8,
        )}.\n` +
        'Download every monthly file the manifest names (its split_manifest.json lists them), at the revision it names.',
    );
  }
  if (problems.length > 0) throw new MaterializeError(`${problems.length} manifest items have no usable multiple-choice question:\n  ${problems.join('\n  ')}`);

  const sourceManifest = existsSync(path.join(manifestDir, 'split_manifest.json')) ? readJsonFile(path.join(manifestDir, 'split_manifest.json')) : {};
  for (const split of SPLITS) writeJsonAtomically(path.join(out, split, 'items.json'), output[split]);
  const counts = Object.fromEntries(SPLITS.map((split) => [split, output[split].length]));
  writeJsonAtomically(path.join(out, 'split_manifest.json'), {
    benchmark: 'LiveMathematicianBench',
    source_manifest_dir: manifestDir,
    source_raw_dir: rawDir,
    source_files: files.map((file) => path.relative(rawDir, file).split(path.sep).join('/')),
    ...(sourceManifest.source_revision ? { source_revision: sourceManifest.source_revision } : {}),
    counts,
    item_fields: ['id', 'month', 'no', 'paper_link', 'theorem', 'sketch', 'theorem_type', 'question', 'choices', 'correct_choice', 'source_path'],
  });
  return { counts, warnings };
}

function main() {
  let options;
  try {
    options = parseArguments(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`materialize-livemath: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    const { counts, warnings } = materialize(options);
    for (const warning of warnings) process.stderr.write(`materialize-livemath: warning: ${warning}\n`);
    process.stdout.write(`Wrote ${counts.train} train, ${counts.val} val and ${counts.test} test items to ${options.out}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof MaterializeError)) throw error;
    process.stderr.write(`materialize-livemath: ${error.message}\n`);
    return 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
