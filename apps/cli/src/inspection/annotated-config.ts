import path from 'node:path';
import { describeConfigSource, type ConfigValueSource } from '@skillopt/core';

/**
 * A resolved configuration as YAML, each leaf followed by a comment naming where its value came
 * from (`# configs/x.yaml`, `# base.yaml (_base_ of configs/x.yaml)`, `# --set k=v`, `# default`).
 * The output is valid YAML: strings that YAML would read as something else are double-quoted.
 */
export function formatAnnotatedConfig(config: unknown, sources: Readonly<Record<string, ConfigValueSource>>, workingDirectory: string): string {
  const lines: Array<{ text: string; comment?: string }> = [];
  const walk = (value: unknown, keys: string[], indent: string) => {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      const path = [...keys, key];
      const label = `${indent}${formatKey(key)}:`;
      if (isMapping(child) && Object.keys(child).length > 0) {
        lines.push({ text: label });
        walk(child, path, `${indent}  `);
        continue;
      }
      const source = sources[path.join('.')];
      lines.push({ text: `${label} ${formatValue(child)}`, comment: source ? describeSource(source, workingDirectory) : 'default' });
    }
  };
  walk(config, [], '');
  const width = Math.min(56, Math.max(0, ...lines.filter((line) => line.comment !== undefined).map((line) => line.text.length)));
  return lines.map((line) => (line.comment === undefined ? line.text : `${line.text.padEnd(width)}  # ${line.comment}`)).join('\n');
}

/** describeConfigSource with file paths shown relative to the working directory when inside it. */
export function describeSource(source: ConfigValueSource, workingDirectory: string): string {
  if (source.kind !== 'file') return describeConfigSource(source);
  const shown = (file: string) => {
    const relative = path.relative(workingDirectory, file);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
  };
  return describeConfigSource({ kind: 'file', path: shown(source.path), ...(source.includedBy ? { includedBy: shown(source.includedBy) } : {}) });
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function formatKey(key: string): string {
  return /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(key) ? key : JSON.stringify(key);
}

const YAML_SPECIAL = /^(true|false|yes|no|on|off|null|~|y|n)$/i;

/** A value in YAML flow syntax. */
function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') {
    const plain =
      value !== '' &&
      /^[A-Za-z0-9_./@(][A-Za-z0-9_ ./@:()+=,-]*$/.test(value) &&
      !/[ ]$/.test(value) &&
      !/: /.test(value) &&
      !/ #/.test(value) &&
      !YAML_SPECIAL.test(value) &&
      Number.isNaN(Number(value)) &&
      !/^[.]?(inf|nan)$/i.test(value) &&
      !/^\d/.test(value);
    return plain ? value : JSON.stringify(value);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map((item) => formatValue(item)).join(', ')}]`;
  if (isMapping(value)) {
    const entries = Object.entries(value);
    return entries.length === 0 ? '{}' : `{${entries.map(([key, item]) => `${formatKey(key)}: ${formatValue(item)}`).join(', ')}}`;
  }
  return JSON.stringify(value);
}
