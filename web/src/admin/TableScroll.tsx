import type { ReactNode } from 'react';

/**
 * Wide tables scroll sideways inside this box on small screens (the page itself never does).
 * The box is focusable and named so that keyboard users can scroll it too.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="admin-table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
