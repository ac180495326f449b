import type { ReactNode } from 'react';

/** The heading of a column of numbers: aligned to the right like its cells. */
export function NumberHeading({ children }: { children: ReactNode }) {
  return (
    <th scope="col" className="number">
      {children}
    </th>
  );
}
