import type { ScaffoldFile } from './context.js';

/**
 * The tiny dataset shipped with the package: 6 train, 3 val and 3 test questions of general
 * knowledge, written for this scaffold, in the split-directory layout env-kit's loadSplitItems
 * reads (`data/<split>/items.json`). `answer_type` labels the answer's shape (number, date,
 * quantity, person_surname, name); the simulated model uses it to pick its procedural mistakes.
 */
interface RawItem {
  id: string;
  question: string;
  answers: string[];
  answer_type: 'number' | 'date' | 'quantity' | 'person_surname' | 'name';
}

const SCAFFOLD_DATASET: Readonly<Record<'train' | 'val' | 'test', readonly RawItem[]>> = {
  train: [
    { id: 'train-01', question: 'How many legs does a spider have?', answers: ['8'], answer_type: 'number' },
    { id: 'train-02', question: 'Which physicist formulated the three laws of motion?', answers: ['Newton'], answer_type: 'person_surname' },
    { id: 'train-03', question: 'What is the capital city of Australia?', answers: ['Canberra'], answer_type: 'name' },
    { id: 'train-04', question: 'How tall is the Eiffel Tower, in metres?', answers: ['330'], answer_type: 'quantity' },
    { id: 'train-05', question: 'On what date did Apollo 11 land on the Moon?', answers: ['July 20, 1969'], answer_type: 'date' },
    { id: 'train-06', question: 'How many sides does a hexagon have?', answers: ['6'], answer_type: 'number' },
  ],
  val: [
    { id: 'val-01', question: 'How many players does a football (soccer) team have on the pitch?', answers: ['11'], answer_type: 'number' },
    { id: 'val-02', question: 'Which playwright wrote Hamlet?', answers: ['Shakespeare'], answer_type: 'person_surname' },
    { id: 'val-03', question: 'On what date did the Titanic sink?', answers: ['April 15, 1912'], answer_type: 'date' },
  ],
  test: [
    { id: 'test-01', question: 'How many continents are there on Earth?', answers: ['7'], answer_type: 'number' },
    { id: 'test-02', question: 'Which scientist developed the theory of general relativity?', answers: ['Einstein'], answer_type: 'person_surname' },
    { id: 'test-03', question: 'What is the largest ocean on Earth?', answers: ['Pacific Ocean', 'Pacific', 'the Pacific'], answer_type: 'name' },
  ],
};

/** data/train/items.json, data/val/items.json and data/test/items.json. */
export function buildDatasetFiles(): ScaffoldFile[] {
  return (['train', 'val', 'test'] as const).map((split) => ({
    path: `data/${split}/items.json`,
    content: `${JSON.stringify(SCAFFOLD_DATASET[split], null, 2)}\n`,
  }));
}
