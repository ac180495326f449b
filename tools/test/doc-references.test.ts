import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The repository must stand on its own: a reader has only the checkout, so every document it
// points at must be in it. Two kinds of reference are checked. A relative markdown link must name a
// file or folder that exists (and, when it names a heading of a markdown file, a heading that
// file has). A mention of a design or spec document (a DESIGN file, or a file under specs/), wherever it is
// written (prose, code comments, JSON), must name a file the checkout holds, since a comment that
// cites a document nobody can open explains nothing.
const repositoryRoot = path.resolve(__dirname, '..', '..');
const SCANNED_FOR_MENTIONS = /\.(md|ts|tsx|mts|cts|js|mjs|cjs|json|ya?ml)$/;
const DOCUMENT_MENTION = /\bDESIGN\.md\b|[\w./-]*\bspecs\/[\w./-]+\.md\b/g;

interface Reference {
  line: number;
  target: string;
}

/** The repository's files as git sees them (tracked, or new and not ignored), without node_modules. */
function repositoryFiles(root: string): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  return listed.split('\n').filter((file) => file !== '' && !file.split('/').includes('node_modules') && existsSync(path.join(root, file)));
}

/** Each line of a markdown text, with the lines of fenced code blocks (fences included) blanked. */
function linesOutsideFences(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const fenceMark = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      // A fence closes with a bare run of its own character at least as long as the one that opened it.
      if (fenceMark?.startsWith(fence) && line.trim() === fenceMark) fence = undefined;
      return '';
    }
    if (fenceMark !== undefined) {
      fence = fenceMark;
      return '';
    }
    return line;
  });
}

/** Each line of a markdown text outside code: fenced blocks blanked, inline code spans removed. */
function proseLines(markdown: string): string[] {
  return linesOutsideFences(markdown).map((line) => line.replace(/(`+)[^`]*?\1/g, ''));
}

/** The link targets of a markdown text that point inside the repository: inline links and images, reference definitions, HTML href and src. */
function relativeLinks(markdown: string): Reference[] {
  const references: Reference[] = [];
  proseLines(markdown).forEach((line, index) => {
    const targets = [
      ...[...line.matchAll(/\]\(\s*<([^>]*)>/g)].map((match) => match[1] as string),
      ...[...line.matchAll(/\]\(\s*([^)\s<][^)\s]*)/g)].map((match) => match[1] as string),
      ...[...line.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/g)].map((match) => match[1] as string),
      ...[...line.matchAll(/\b(?:href|src)\s*=\s*["']([^"']+)["']/g)].map((match) => match[1] as string),
    ];
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
      references.push({ line: index + 1, target });
    }
  });
  return references;
}

/** GitHub's anchor for a heading: its text lowercased, punctuation dropped, spaces turned into hyphens. */
function headingAnchor(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a markdown text offers: its headings' (numbered as GitHub numbers repeats) and explicit ids and names. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of linesOutsideFences(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const anchor = headingAnchor(heading);
      const repeats = seen.get(anchor) ?? 0;
      seen.set(anchor, repeats + 1);
      anchors.add(repeats === 0 ? anchor : `${anchor}-${repeats}`);
    }
    for (const match of line.matchAll(/<a\s[^>]*\b(?:id|name)\s*=\s*["']([^"']+)["']/g)) anchors.add(match[1] as string);
  }
  return anchors;
}

/** What is wrong with one relative link of `file`, or undefined when it leads somewhere. */
function problemOfLink(root: string, file: string, target: string): string | undefined {
  const hashAt = target.indexOf('#');
  const pathPart = decodeURIComponent((hashAt < 0 ? target : target.slice(0, hashAt)).replace(/\?.*$/, ''));
  const anchor = hashAt < 0 ? '' : decodeURIComponent(target.slice(hashAt + 1));
  const resolved =
    pathPart === '' ? path.join(root, file) : pathPart.startsWith('/') ? path.join(root, pathPart) : path.resolve(root, path.dirname(file), pathPart);
  if (!existsSync(resolved)) return `links to ${target}, and the repository has no ${path.relative(root, resolved).split(path.sep).join('/')}`;
  if (anchor === '' || !resolved.endsWith('.md') || statSync(resolved).isDirectory()) return undefined;
  const anchors = anchorsOf(readFileSync(resolved, 'utf8'));
  return anchors.has(anchor) || anchors.has(anchor.toLowerCase()) ? undefined : `links to ${target}, and that document has no heading or anchor #${anchor}`;
}

/** Mentions of design or spec documents, wherever in the text they are written. */
function documentMentions(text: string): Reference[] {
  return text.split('\n').flatMap((line, index) => [...line.matchAll(DOCUMENT_MENTION)].map((match) => ({ line: index + 1, target: match[0] })));
}

/** Every broken reference of one file of the repository at `root`, as `file:line: problem`. */
function brokenReferences(root: string, file: string): string[] {
  const problems: string[] = [];
  const text = readFileSync(path.join(root, file), 'utf8');
  if (file.endsWith('.md')) {
    for (const { line, target } of relativeLinks(text)) {
      const problem = problemOfLink(root, file, target);
      if (problem) problems.push(`${file}:${line}: ${problem}`);
    }
  }
  if (SCANNED_FOR_MENTIONS.test(file)) {
    for (const { line, target } of documentMentions(text)) {
      const named = [path.join(root, target), path.resolve(root, path.dirname(file), target)];
      if (!named.some((candidate) => existsSync(candidate))) problems.push(`${file}:${line}: cites ${target}, which is not in the repository`);
    }
  }
  return problems;
}

describe('references to documents', () => {
  it('name files, folders and headings the repository holds', () => {
    const files = repositoryFiles(repositoryRoot);
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'tools/layering/layers.json']));
    expect(files.flatMap((file) => brokenReferences(repositoryRoot, file))).toEqual([]);
  });

  it('reads the links of prose, not of code', () => {
    const markdown = [
      '[a](one.md) ![b](img/two.png "title") [c](<with space.md>)',
      '[d]: three.md',
      '<img src="four.svg"> <a href="five.md#part">five</a>',
      'Inline `[e](six.md)` and ``[f](seven.md)`` are code.',
      '````md',
      '[g](eight.md)',
      '```',
      '[h](nine.md)',
      '````',
      '~~~',
      '```',
      '[m](ten.md)',
      '~~~',
      '[i](https://example.org/x.md) [j](mailto:someone@example.org) [k](#local) [l](//cdn.example.org/x.js)',
    ].join('\n');
    expect(relativeLinks(markdown)).toEqual([
      { line: 1, target: 'with space.md' },
      { line: 1, target: 'one.md' },
      { line: 1, target: 'img/two.png' },
      { line: 2, target: 'three.md' },
      { line: 3, target: 'four.svg' },
      { line: 3, target: 'five.md#part' },
      { line: 14, target: '#local' },
    ]);
  });

  it('gives headings the anchors GitHub gives them', () => {
    const markdown = [
      '# Sleep: one night',
      '## The `skillopt` command',
      '## Notes',
      '## Notes',
      '## C# and F# ##',
      '<a id="kept-anchor"></a>',
      '```',
      '# not a heading',
      '```',
    ].join('\n');
    expect([...anchorsOf(markdown)]).toEqual(['sleep-one-night', 'the-skillopt-command', 'notes', 'notes-1', 'c-and-f', 'kept-anchor']);
  });

  it('fails on a missing file, a missing heading and a cited design document, naming file and line', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'doc-references-'));
    try {
      mkdirSync(path.join(root, 'docs'), { recursive: true });
      mkdirSync(path.join(root, 'src'), { recursive: true });
      // The names are put together so that this file itself mentions neither.
      const designDocument = ['DESIGN', 'md'].join('.');
      const specDocument = ['specs', 'upstream-core.md'].join('/');
      writeFileSync(path.join(root, 'docs/guide.md'), '# Guide\n\n## Setting up\n');
      writeFileSync(
        path.join(root, 'docs/index.md'),
        [
          '# Index',
          'See [the guide](guide.md), [setting up](guide.md#setting-up), [this folder](./) and [the top](#index).',
          'Then [a lost page](../missing.md) and [a lost heading](guide.md#running).',
          `The rules are in \`${specDocument}\`.`,
        ].join('\n'),
      );
      writeFileSync(path.join(root, 'src/index.ts'), `// Layering as ${designDocument} says.\nexport const answer = 42;\n`);
      expect([...brokenReferences(root, 'docs/index.md'), ...brokenReferences(root, 'src/index.ts')]).toEqual([
        'docs/index.md:3: links to ../missing.md, and the repository has no missing.md',
        'docs/index.md:3: links to guide.md#running, and that document has no heading or anchor #running',
        `docs/index.md:4: cites ${specDocument}, which is not in the repository`,
        `src/index.ts:1: cites ${designDocument}, which is not in the repository`,
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
