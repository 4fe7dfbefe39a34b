import { formatBrl } from '../../shared/format.ts';

/** An amount as `R$ 1.234,56` that never breaks between `R$` and the number (`.money` is `white-space: nowrap`). */
export function Money({ cents }: { cents: number }) {
  return <span className="money">{formatBrl(cents)}</span>;
}
