import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { codexSearchPath, shippedBubblewrap } from '../src/bubblewrap-compatibility';

const root = mkdtempSync(path.join(tmpdir(), 'codex-bwrap-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function executable(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, 0o755);
  return file;
}

// An npm install of Codex: the launcher, its platform package with the bwrap it ships, the .bin link.
const scope = path.join(root, 'node_modules', '@openai');
const launcher = executable(path.join(scope, 'codex', 'bin', 'codex.js'), '#!/bin/sh\n');
const shipped = executable(
  path.join(scope, 'codex-linux-x64', 'vendor', 'x86_64-unknown-linux-musl', 'codex-resources', 'bwrap'),
  '#!/bin/sh\necho "bubblewrap built for Codex"\n',
);
const binLink = path.join(root, 'node_modules', '.bin', 'codex');
mkdirSync(path.dirname(binLink), { recursive: true });
symlinkSync(launcher, binLink);

function systemBubblewrap(version: string): string {
  const folder = path.join(root, `system-${version}`);
  executable(path.join(folder, 'bwrap'), `#!/bin/sh\necho "bubblewrap ${version}"\n`);
  return folder;
}

describe("Codex's bubblewrap on a machine with an older one", () => {
  it('finds the bwrap a Codex install ships, through the npm launcher', () => {
    expect(shippedBubblewrap(binLink)).toBe(shipped);
    expect(shippedBubblewrap(path.join(root, 'missing'))).toBeUndefined();
  });

  it("puts Codex's own bwrap first when the system's is older than 0.9.0 (no --argv0)", () => {
    const searchPath = `${systemBubblewrap('0.8.0')}${path.delimiter}/usr/bin`;
    expect(codexSearchPath(binLink, searchPath)).toBe(`${path.dirname(shipped)}${path.delimiter}${searchPath}`);
  });

  it('leaves the PATH alone with a recent system bwrap, or none (Codex then uses its own)', () => {
    expect(codexSearchPath(binLink, `${systemBubblewrap('0.11.0')}${path.delimiter}/usr/bin`)).toBeUndefined();
    expect(codexSearchPath(binLink, path.join(root, 'no-bwrap-here'))).toBeUndefined();
  });
});
