import { addDays, daysBetween, formatDate, saoPauloDate } from '../../../shared/format.ts';

/** The exports' longest period, as the server checks it (exportPeriodInvalid). */
const MAX_DAYS = 366;
const PERIOD_INVALID = 'Período inválido: a data final deve ser igual ou posterior à inicial, em até 366 dias.';

/**
 * "Exportar CSV" of a page's period: a plain link that the browser downloads as the server streams it
 * (Content-Disposition: attachment), so a long period never sits in the page's memory. Without dates it is
 * the 30 days up to today (or up to the chosen last day). A browser download cannot show the server's 400,
 * so a period the server would refuse is caught here, with the server's message, and the link is not offered.
 */
export function CsvExport(props: { path: string; from: string; to: string; query?: Record<string, string> }) {
  const to = props.to || saoPauloDate();
  const from = props.from || addDays(to, -30);
  const days = daysBetween(from, to);
  const label = `Exportar CSV (${formatDate(from)} a ${formatDate(to)})`;
  if (Number.isNaN(days) || days < 0 || days >= MAX_DAYS) {
    return (
      <div className="actions">
        <button type="button" className="secondary" disabled aria-describedby="csv-export-problem">
          {label}
        </button>
        <p id="csv-export-problem" className="field-error">
          {PERIOD_INVALID}
        </p>
      </div>
    );
  }
  const query = new URLSearchParams({ from, to, ...props.query });
  return (
    <p className="actions">
      <a className="button secondary" href={`${props.path}?${query}`} download>
        {label}
      </a>
    </p>
  );
}
