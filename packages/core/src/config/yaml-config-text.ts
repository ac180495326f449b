import { parseDocument, type YAMLError } from 'yaml';
import { isConfigMapping, type ConfigTree } from './config-tree.js';
import { configInvalid } from './config-invalid-error.js';

/**
 * Parses the text of one YAML config file. `source` names the file in messages. A syntax error
 * becomes a `config-invalid` error that says where (file:line:column) and shows the offending
 * line with a caret, because "bad indentation" alone sends the user hunting through the file.
 */
export function parseConfigYaml(text: string, source: string): ConfigTree {
  // `prettyErrors` gives each error its line and column; `uniqueKeys` makes a key written twice an
  // error instead of a silent overwrite.
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const problem = document.errors[0];
  if (problem) throw yamlSyntaxError(problem, text, source, document.errors.length);

  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 1000 });
  } catch (error) {
    // An unresolvable alias (`*missing`) or an alias bomb is only detected when converting.
    throw configInvalid(`${source}: ${error instanceof Error ? error.message : String(error)}`, { file: source }, error);
  }
  if (value === null || value === undefined) return {};
  if (!isConfigMapping(value))
    throw configInvalid(`${source}: a config file must be a YAML mapping of keys to values, but this one is ${describeTopLevel(value)}`, {
      file: source,
    });
  return value;
}

function yamlSyntaxError(problem: YAMLError, text: string, source: string, count: number): Error {
  const position = problem.linePos?.[0];
  const reason = problem.message.split(/ at line \d+, column \d+/)[0]?.trim() ?? problem.message;
  if (!position) return configInvalid(`${source}: ${reason}`, { file: source, yamlCode: problem.code });

  const lines = text.split(/\r?\n/);
  const offending = lines[position.line - 1] ?? '';
  const gutter = `${position.line} | `;
  const caret = `${' '.repeat(gutter.length + Math.max(0, position.col - 1))}^`;
  const more = count > 1 ? `\n(${count - 1} more YAML error${count > 2 ? 's' : ''} after this one)` : '';
  return configInvalid(`${source}:${position.line}:${position.col}: invalid YAML: ${reason}\n${gutter}${offending}\n${caret}${more}`, {
    file: source,
    line: position.line,
    column: position.col,
    yamlCode: problem.code,
  });
}

function describeTopLevel(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return 'a single string';
  return `a single ${typeof value}`;
}
