import type { ReactNode } from 'react';

/**
 * A wide table's box: it scrolls sideways on a narrow screen, and takes the keyboard's focus so it
 * can be scrolled without a mouse. It is a named group, not a landmark: its section is the region.
 */
export function TableRegion({ labelledBy, children }: { labelledBy: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must be reachable by keyboard (WCAG 2.1.1).
    // biome-ignore lint/a11y/useSemanticElements: a fieldset groups form controls; this groups a table.
    <div className="table-region" role="group" aria-labelledby={labelledBy} tabIndex={0}>
      {children}
    </div>
  );
}
