import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The built page (`vite build`, which the test target depends on) as `skillopt dashboard` serves it.
const distribution = path.resolve(__dirname, '..', 'dist');

describe('the built page', () => {
  const indexFile = path.join(distribution, 'index.html');
  if (!existsSync(indexFile)) throw new Error(`no build in ${distribution}: run \`pnpm nx run @skillopt/dashboard:build\` first`);
  const html = readFileSync(indexFile, 'utf8');
  const assets = readdirSync(path.join(distribution, 'assets'));
  const scripts = assets.filter((file) => file.endsWith('.js')).map((file) => readFileSync(path.join(distribution, 'assets', file), 'utf8'));
  const styles = assets.filter((file) => file.endsWith('.css')).map((file) => readFileSync(path.join(distribution, 'assets', file), 'utf8'));

  it('is one English document whose hashed assets are named relative to it', () => {
    expect(html).toMatch(/<html lang="en">/);
    // The one other reference is the empty icon (`data:,`), so that the browser asks the server for no favicon.
    const references = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!).filter((reference) => reference !== 'data:,');
    expect(references.length).toBeGreaterThanOrEqual(2);
    for (const reference of references) expect(reference).toMatch(/^\.\/assets\/[\w-]+\.(js|css)$/);
    expect(scripts.length).toBeGreaterThan(0);
  });

  it('loads nothing from the network: no external script, style or font', () => {
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    for (const style of styles) {
      expect(style).not.toMatch(/@import/);
      expect(style).not.toMatch(/url\(\s*["']?(?:https?:)?\/\//);
      expect(style).not.toMatch(/@font-face/);
    }
  });

  it('bundles nothing of Node: core is imported for its types only', () => {
    for (const script of scripts) {
      expect(script).not.toMatch(/["']node:[a-z_/]+["']/);
      expect(script).not.toMatch(/\brequire\(["'](?:fs|path|os|child_process)["']\)/);
    }
  });
});
