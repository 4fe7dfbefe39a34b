import type { ReactNode } from 'react';
import type { OperatorSession } from '../../api.ts';

/** One section of an account's page. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card" aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** What every section of an account's page receives: the account, the operator, and where to say what changed. */
export interface SectionProps {
  accountId: string;
  session: OperatorSession;
  onChanged: (message: string) => void;
}
