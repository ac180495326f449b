import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listConfigKeys } from '../../src/config/index.js';

/** docs/configuration.md documents every key with its default; this keeps the two in step. */
describe('docs/configuration.md', () => {
  const documentation = readFileSync(join(__dirname, '..', '..', 'docs', 'configuration.md'), 'utf8');
  const rows = new Map(
    documentation
      .split('\n')
      .map((line) => /^\| `([a-z_.]+)` \| ([^|]+) \|/.exec(line))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => [match[1] as string, (match[2] as string).trim()]),
  );

  it.each(listConfigKeys().map((key) => [key.path, key]))('documents %s with its default', (_path, key) => {
    const row = rows.get(key.path);
    expect(row).toBeDefined();
    if (key.default) expect(row).toBe(`\`${JSON.stringify(key.default.value)}\``);
    else expect(row?.startsWith('—')).toBe(true);
    expect(key.description.length).toBeGreaterThan(10);
  });
});
