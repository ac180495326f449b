import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

/** One rule axe-core found broken on a page, with where. */
export interface AccessibilityViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core's WCAG 2 A and AA rules (colour contrast and keyboard access among them) on the page as it is now. */
export async function findAccessibilityViolations(page: Page): Promise<AccessibilityViolation[]> {
  // Evaluated through the debugging protocol, which the page's Content-Security-Policy does not govern: an inline script tag would be refused.
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: unknown,
          ) => Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe;
    const results = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  });
}
