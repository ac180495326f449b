import { formatConfigPath, isConfigMapping, listLeaves } from './config-tree.js';
import type { ConfigKeyMove } from './original-format/translate-original-config.js';

/** Where one value of the resolved configuration came from, for `skillopt config print`. */
export type ConfigValueSource =
  /** A config file; `includedBy` is set when it was read as a `_base_` of that file. */
  | { kind: 'file'; path: string; includedBy?: string }
  /** A layer given as data (a discovered `package.json#skillopt`, a programmatic config); its paths are relative to `directory`. */
  | { kind: 'inline'; name: string; directory?: string }
  /** A `--set` / `--cfg-options` override, as the user typed it (a secret in it redacted). */
  | { kind: 'override'; text: string }
  /** No layer set it: the schema's (core's or the package's) default. */
  | { kind: 'default' };

/** One line of provenance, for printing. */
export function describeConfigSource(source: ConfigValueSource): string {
  switch (source.kind) {
    case 'file':
      return source.includedBy ? `${source.path} (_base_ of ${source.includedBy})` : source.path;
    case 'inline':
      return source.name;
    case 'override':
      return `--set ${source.text}`;
    case 'default':
      return 'default';
  }
}

/**
 * Follows every leaf through the layering: the layer that last wrote a leaf is its source, a
 * later non-mapping value replaces the whole subtree under it (as the merge does), and keys that
 * translation moved carry their source along. Paths are dotted strings.
 */
export class ConfigProvenance {
  private readonly sources = new Map<string, ConfigValueSource>();

  /** A layer merged over what came before (mappings merge, everything else replaces). */
  recordLayer(layer: unknown, source: ConfigValueSource): void {
    for (const leaf of listLeaves(layer)) {
      if (leaf.path.length === 0) continue;
      // An empty mapping merged over a mapping changes nothing; over a scalar it replaces it.
      if (isConfigMapping(leaf.value) && this.hasEntriesUnder(formatConfigPath(leaf.path))) continue;
      this.replaceAt(leaf.path, source);
    }
  }

  /** A value set at one path, replacing what was there (an override). */
  recordValue(path: readonly string[], value: unknown, source: ConfigValueSource): void {
    this.forgetUnder(formatConfigPath(path));
    if (isConfigMapping(value) && Object.keys(value).length > 0) {
      for (const leaf of listLeaves(value, [...path])) this.replaceAt(leaf.path, source);
    } else this.replaceAt([...path], source);
  }

  /** Applies translation's moves in order. */
  applyMoves(moves: readonly ConfigKeyMove[]): void {
    for (const move of moves) {
      const carried = [...this.sources].filter(([path]) => path === move.from || path.startsWith(`${move.from}.`));
      if (move.to !== undefined)
        for (const [path, source] of carried) {
          const target = `${move.to}${path.slice(move.from.length)}`;
          this.forgetUnder(target);
          this.sources.set(target, source);
        }
      if (!move.copy) for (const [path] of carried) this.sources.delete(path);
    }
  }

  /** The source of the value at a dotted path: the recorded one, or the schema default. */
  sourceOf(path: string): ConfigValueSource {
    return this.sources.get(path) ?? { kind: 'default' };
  }

  /**
   * Where the value at a path (or, for a key inside a value, the nearest enclosing key that a
   * layer set) came from; undefined when no layer set anything there.
   */
  nearestSourceOf(path: string): ConfigValueSource | undefined {
    let current = path.replace(/\[\d+\]/g, '');
    for (;;) {
      const found = this.sources.get(current);
      if (found) return found;
      const cut = current.lastIndexOf('.');
      if (cut < 0) return undefined;
      current = current.slice(0, cut);
    }
  }

  /** The source of every leaf of a (validated) configuration. */
  sourcesOf(config: unknown): Record<string, ConfigValueSource> {
    const result: Record<string, ConfigValueSource> = {};
    for (const leaf of listLeaves(config)) {
      if (leaf.path.length === 0) continue;
      const path = formatConfigPath(leaf.path);
      result[path] = this.sourceOf(path);
    }
    return result;
  }

  private replaceAt(path: readonly string[], source: ConfigValueSource): void {
    const dotted = formatConfigPath(path);
    this.forgetUnder(dotted);
    // A mapping written where an earlier layer had a scalar replaces that scalar.
    for (let length = 1; length < path.length; length += 1) this.sources.delete(formatConfigPath(path.slice(0, length)));
    this.sources.set(dotted, source);
  }

  private hasEntriesUnder(dotted: string): boolean {
    for (const path of this.sources.keys()) if (path.startsWith(`${dotted}.`)) return true;
    return false;
  }

  private forgetUnder(dotted: string): void {
    for (const path of [...this.sources.keys()]) if (path === dotted || path.startsWith(`${dotted}.`)) this.sources.delete(path);
  }
}
