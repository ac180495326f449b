import { readFileSync } from 'node:fs';
import path from 'node:path';

// docs/architecture.md states the dependency rule for readers and tools/layering/layers.json
// states it for the check. The table is what a contributor reads, so the two must say the same
// thing: this test reads the table back and compares it with the data, row by row.
const repositoryRoot = path.resolve(__dirname, '..', '..');
const ARCHITECTURE = 'docs/architecture.md';
const RULE_ANCHOR = '<a id="dependency-rule"></a>';

interface LayerRules {
  kinds: Record<string, string[] | '*'>;
  namePatterns: { pattern: string; kind: string }[];
}

interface RuleRow {
  kind: string;
  /** The package name as the table writes it, `<id>` standing for an adapter's own id. */
  packageName: string;
  /** What the row allows at run time: kinds of ours, or '*' for anything. */
  mayDependOn: string[] | '*';
}

function cellsOf(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim());
}

/** The rows of the first table after the rule's anchor, read by their column headings. */
function ruleTable(markdown: string): RuleRow[] {
  const start = markdown.indexOf(RULE_ANCHOR);
  if (start < 0) throw new Error(`${ARCHITECTURE} has no ${RULE_ANCHOR}`);
  const lines = markdown.slice(start).split('\n');
  const headingIndex = lines.findIndex((line) => line.trimStart().startsWith('|'));
  if (headingIndex < 0) throw new Error(`${ARCHITECTURE} has no table after ${RULE_ANCHOR}`);
  const headings = cellsOf(lines[headingIndex] as string);
  const column = (heading: RegExp) => {
    const index = headings.findIndex((cell) => heading.test(cell));
    if (index < 0) throw new Error(`the rule's table has no column matching ${heading}`);
    return index;
  };
  const kindColumn = column(/^kind$/);
  const packageColumn = column(/^package$/);
  const dependsColumn = column(/^may depend on/);
  const rows: RuleRow[] = [];
  for (const line of lines.slice(headingIndex + 2)) {
    if (!line.trimStart().startsWith('|')) break;
    const cells = cellsOf(line);
    const allowed = cells[dependsColumn] as string;
    rows.push({
      kind: cells[kindColumn] as string,
      packageName: /`([^`]+)`/.exec(cells[packageColumn] as string)?.[1] ?? '',
      mayDependOn:
        allowed === 'anything'
          ? '*'
          : allowed === '—'
            ? []
            : allowed
                .split(',')
                .map((kind) => kind.trim())
                .sort(),
    });
  }
  return rows;
}

function kindOfPackage(name: string, rules: LayerRules): string | undefined {
  for (const { pattern, kind } of rules.namePatterns) {
    const match = new RegExp(pattern).exec(name);
    if (match) return kind.replace('$1', match[1] ?? '');
  }
  return undefined;
}

describe("docs/architecture.md's dependency rule", () => {
  const rules = JSON.parse(readFileSync(path.join(repositoryRoot, 'tools/layering/layers.json'), 'utf8')) as LayerRules;
  const rows = ruleTable(readFileSync(path.join(repositoryRoot, ARCHITECTURE), 'utf8'));

  it('has one row for each kind layers.json knows, and no other', () => {
    expect(rows.map((row) => row.kind).sort()).toEqual(Object.keys(rules.kinds).sort());
  });

  it('allows each kind what layers.json allows it', () => {
    const documented = Object.fromEntries(rows.map((row) => [row.kind, row.mayDependOn]));
    const checked = Object.fromEntries(Object.entries(rules.kinds).map(([kind, allowed]) => [kind, allowed === '*' ? '*' : [...allowed].sort()]));
    expect(documented).toEqual(checked);
  });

  it("names each kind's packages as the check tells them apart", () => {
    const misnamed = rows
      .filter((row) => kindOfPackage(row.packageName.replace('<id>', 'example'), rules) !== row.kind)
      .map((row) => `${row.kind}: ${row.packageName || '(no package name)'}`);
    expect(misnamed).toEqual([]);
  });

  it('reads a table by its headings, whatever the order of its columns', () => {
    const markdown = [
      RULE_ANCHOR,
      '',
      '| package | may depend on at run time | kind |',
      '|---|---|---|',
      '| `@skillopt/contract` | — | contract |',
      '| `@skillopt/env-<id>` | runtime-kit, contract | env |',
      '| `@skillopt/cli` | anything | cli |',
      '',
      'After the table.',
    ].join('\n');
    expect(ruleTable(markdown)).toEqual([
      { kind: 'contract', packageName: '@skillopt/contract', mayDependOn: [] },
      { kind: 'env', packageName: '@skillopt/env-<id>', mayDependOn: ['contract', 'runtime-kit'] },
      { kind: 'cli', packageName: '@skillopt/cli', mayDependOn: '*' },
    ]);
  });
});
