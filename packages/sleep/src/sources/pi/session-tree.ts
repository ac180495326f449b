/**
 * The entries of a Pi session of version 2 or 3, which form a tree: each entry names its parent,
 * and branching (editing an earlier prompt, `/tree`) leaves the abandoned branch in the file. The
 * conversation the developer last had is the parent chain from the file's last entry back to a
 * root; only its entries are harvested.
 *
 * Pi writes a parent before its children, so a parent that has not appeared yet is a forward
 * reference — and the only way a chain could loop — and the file is not one Pi wrote.
 */
export interface SessionTree {
  /** Adds the entry on `lineNumber`; a problem that makes the session malformed, or undefined. */
  add(id: unknown, parentId: unknown, lineNumber: number): string | undefined;
  /** The line numbers of the entries on the active branch. */
  activeLines(): Set<number>;
}

interface TreeEntry {
  parentId: string | null;
  lineNumber: number;
}

export function createSessionTree(): SessionTree {
  const entries = new Map<string, TreeEntry>();
  let lastId: string | undefined;
  return {
    add(id, parentId, lineNumber) {
      if (typeof id !== 'string' || id === '') return 'an entry without an id';
      if (entries.has(id)) return `a second entry with the id ${JSON.stringify(id)}`;
      if (parentId !== null && typeof parentId !== 'string') return `entry ${JSON.stringify(id)} has no parentId`;
      if (parentId !== null && !entries.has(parentId)) return `entry ${JSON.stringify(id)} names a parent that does not come before it`;
      entries.set(id, { parentId, lineNumber });
      lastId = id;
      return undefined;
    },
    activeLines() {
      const lines = new Set<number>();
      for (let id = lastId; id !== undefined; ) {
        const entry = entries.get(id) as TreeEntry;
        lines.add(entry.lineNumber);
        id = entry.parentId ?? undefined;
      }
      return lines;
    },
  };
}
