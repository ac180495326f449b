#!/usr/bin/env node
// Writes datasets/demo-hard: the larger, generated question set the hard world of the simulated
// model is measured on (configs/demo/hard.yaml). Every fact is invented (a fictional atlas), so no
// item is copied from anywhere and none is known outside the simulated model's answer key. The
// output is deterministic: the same seed writes the same files.
//
//   node tools/generate-demo-hard/generate.mjs [--seed 7] [--out datasets/demo-hard] [--check]
//
// --check writes nothing and exits 1 when the files on disk differ from what it would write.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '7' },
    out: { type: 'string', default: path.join(repoRoot, 'datasets', 'demo-hard') },
    check: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log('node tools/generate-demo-hard/generate.mjs [--seed 7] [--out datasets/demo-hard] [--check]');
  process.exit(0);
}

/** Items per answer shape in each split. */
const PER_SHAPE = { train: 20, val: 10, test: 20 };
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const ONSETS = ['b', 'br', 'c', 'd', 'dr', 'f', 'g', 'gr', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'th', 'v', 'w', 'z'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ae', 'ei', 'ou'];
const CODAS = ['', 'n', 'r', 'l', 's', 'th', 'nd', 'rk', 'st', 'm'];
const RIVER_WORDS = ['Silver', 'Amber', 'Hollow', 'Crimson', 'Quiet', 'Northern', 'Copper', 'Willow', 'Granite', 'Misty'];
const RIVER_KINDS = ['River', 'Water', 'Run', 'Stream', 'Flow'];
const CRAFTS = ['glassblowers', 'cartographers', 'bell founders', 'weavers', 'clockmakers', 'printers', 'tanners', 'lens grinders', 'rope makers', 'dyers'];
const DEVICES = ['tide engine', 'cloud lamp', 'echo loom', 'salt clock', 'wind press', 'ember kettle', 'star sieve', 'rain organ', 'frost mill', 'sun lens'];
const LANDMARKS = ['lighthouse', 'bell tower', 'aqueduct', 'watchtower', 'bridge', 'dam', 'obelisk', 'spire'];

/** mulberry32: a small seeded generator, enough for invented names. */
function createRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const random = createRandom(Number(values.seed));
const choose = (list) => list[Math.floor(random() * list.length)];
const between = (low, high) => low + Math.floor(random() * (high - low + 1));
const capitalised = (word) => word[0].toUpperCase() + word.slice(1);
const usedNames = new Set();

/** An invented proper name of two or three syllables, never the same twice. */
function inventName() {
  for (;;) {
    const syllables = between(2, 3);
    let name = '';
    for (let index = 0; index < syllables; index += 1) name += choose(ONSETS) + choose(VOWELS) + (index === syllables - 1 ? choose(CODAS) : '');
    name = capitalised(name);
    if (!usedNames.has(name)) {
      usedNames.add(name);
      return name;
    }
  }
}

function writtenDate() {
  const month = between(0, 11);
  return `${MONTHS[month]} ${between(1, DAYS_IN_MONTH[month])}, ${between(1420, 1890)}`;
}

/** One item of each shape; the question names the fictional place or thing, so every question is unique. */
const SHAPES = {
  number: () => ({ question: `How many gates does the walled town of ${inventName()} have?`, answer: String(between(3, 140)) }),
  date: () => ({ question: `On what date was the Charter of ${inventName()} sealed?`, answer: writtenDate() }),
  quantity: () => ({
    question: `How tall is the ${choose(LANDMARKS)} of ${inventName()}, in metres?`,
    answer: String(between(12, 480)),
  }),
  person_surname: () => ({ question: `Who founded the guild of ${choose(CRAFTS)} in ${inventName()}?`, answer: inventName() }),
  person_full_name: () => ({
    question: `What is the full name of the person who built the first ${choose(DEVICES)} of ${inventName()}?`,
    answer: `${inventName()} ${inventName()}`,
  }),
  name: () => ({ question: `What is the capital of the province of ${inventName()}?`, answer: inventName() }),
  multiword_name: () => ({
    question: `What is the name of the river that runs through ${inventName()}?`,
    answer: `${choose(RIVER_WORDS)} ${choose(RIVER_KINDS)}`,
  }),
};

const splits = {};
let counter = 0;
for (const split of ['train', 'val', 'test']) {
  const items = [];
  for (let round = 0; round < PER_SHAPE[split]; round += 1)
    for (const [shape, make] of Object.entries(SHAPES)) {
      counter += 1;
      const { question, answer } = make();
      items.push({ id: `hard-${String(counter).padStart(4, '0')}`, question, answers: [answer], answer_type: shape });
    }
  splits[split] = items;
}

let differs = false;
for (const [split, items] of Object.entries(splits)) {
  const file = path.join(values.out, split, 'items.json');
  const text = `${JSON.stringify(items, null, 2)}\n`;
  if (values.check) {
    if (!existsSync(file) || readFileSync(file, 'utf8') !== text) {
      console.error(`${path.relative(repoRoot, file)} differs from what the generator writes with --seed ${values.seed}`);
      differs = true;
    }
    continue;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  // Written whole, then renamed into place: a killed run never leaves half a file.
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
  console.log(`${path.relative(repoRoot, file)}: ${items.length} items`);
}
process.exit(differs ? 1 : 0);
