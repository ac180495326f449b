import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

// Every relative link in the repository's markdown points to a file or folder that exists: docs
// that cite a document the repository does not contain send a reader nowhere.
const repositoryRoot = path.resolve(__dirname, '..', '..');

function markdownFiles(): string[] {
  const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], { cwd: repositoryRoot, encoding: 'utf8' });
  return tracked.split('\n').filter((file) => file !== '' && !file.includes('node_modules/') && existsSync(path.join(repositoryRoot, file)));
}

function relativeLinks(text: string): string[] {
  const withoutCode = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const links = [...withoutCode.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] as string);
  return links.filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link) && !link.startsWith('#'));
}

describe('markdown links', () => {
  it('point to files that exist', () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      for (const link of relativeLinks(readFileSync(path.join(repositoryRoot, file), 'utf8'))) {
        const target = decodeURIComponent(link.split('#')[0] as string);
        if (target !== '' && !existsSync(path.resolve(repositoryRoot, path.dirname(file), target))) broken.push(`${file}: ${link}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
