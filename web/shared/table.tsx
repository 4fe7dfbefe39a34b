import type { Key, ReactNode } from 'react';

/**
 * A list as a table on a wide screen and as one card per row on a phone (issue 38, defect 4: at 375 px the
 * tables scrolled sideways inside their box and hid the amounts, the balance and the row's buttons). Below
 * 640 px (web/shared/styles.css, `.data-table`) each row is a card: its title first, then its amounts,
 * large, then every other value under its column's name, then its buttons, whole, so nothing needs a
 * sideways swipe. The ARIA roles are explicit because a table laid out as blocks loses them in some
 * browsers; the names shown in a card are hidden from screen readers, which read the column headers.
 */
export interface Column<T> {
  /** The column's header, and the name of the value in a phone's card. */
  header: string;
  cell: (row: T) => ReactNode;
  /**
   * `title`: the row's name (a link, an id), at the top of its card; `money`: an amount (right-aligned; in
   * a card, shown before the other values); `actions`: the row's buttons, at the bottom of its card.
   */
  kind?: 'title' | 'money' | 'actions';
}

export function DataTable<T>(props: {
  caption: string;
  columns: readonly (Column<T> | false | undefined)[];
  rows: readonly T[];
  rowKey: (row: T) => Key;
  testId?: string;
  rowTestId?: string;
}) {
  const columns = props.columns.filter((column): column is Column<T> => Boolean(column));
  return (
    <div className="data-table" data-testid={props.testId}>
      <table role="table">
        <caption className="sr-only">{props.caption}</caption>
        <thead role="rowgroup">
          <tr role="row">
            {columns.map((column) => (
              <th key={column.header} role="columnheader" scope="col" className={column.kind === 'money' ? 'num' : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)} role="row" data-testid={props.rowTestId}>
              {columns.map((column) => (
                <td key={column.header} role="cell" className={column.kind ? `cell-${column.kind}${column.kind === 'money' ? ' num' : ''}` : undefined}>
                  {column.kind === 'title' || column.kind === 'actions' ? null : (
                    <span className="cell-label" aria-hidden="true">
                      {column.header}
                    </span>
                  )}
                  <span className="cell-value">{column.cell(row)}</span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Facts of one thing as name and value (a settings table): two columns where there is room, stacked on a phone. */
export function FactList({ label, facts }: { label: string; facts: readonly { name: string; value: ReactNode }[] }) {
  return (
    <dl className="facts" aria-label={label}>
      {facts.map((fact) => (
        <div key={fact.name} className="fact">
          <dt>{fact.name}</dt>
          <dd>{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}
