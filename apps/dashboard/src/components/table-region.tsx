import { type ReactNode, useEffect, useRef, useState } from 'react';

/**
 * A wide table's box: it scrolls sideways on a narrow screen, and then takes the keyboard's focus
 * so it can be scrolled without a mouse (a table that fits is no stop on the way). It is a named
 * group, not a landmark: its section is the region.
 */
export function TableRegion({ labelledBy, children }: { labelledBy: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset groups form controls; this groups a table.
    <div ref={box} className="table-region" role="group" aria-labelledby={labelledBy} {...(scrolls ? { tabIndex: 0 } : {})}>
      {children}
    </div>
  );
}
