import { formatBrl } from '../../shared/format.ts';

/** An amount in reais that never breaks between `R$` and its number. */
export function Brl({ cents }: { cents: number }) {
  return <span className="brl">{formatBrl(cents)}</span>;
}
