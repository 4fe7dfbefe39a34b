import { useState } from 'react';
import { problemOf } from '../../../shared/api.ts';
import { formatDate, statusLabel } from '../../../shared/format.ts';
import { DataTable } from '../../../shared/table.tsx';
import { Field, Money, Notice, SelectField, Status } from '../../../shared/ui.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { ListState, PageNav, useCursorPages } from '../lists.tsx';
import { may } from '../roles.ts';

type DueCharge = Schemas['DueCharge'];

const STATUSES = ['pending', 'paid', 'partially_refunded', 'refunded', 'expired', 'cancelled'] as const;
type DueChargeStatus = (typeof STATUSES)[number];

/** What a payer pays today: only a pending charge has an amount to pay. */
function AmountDueToday({ charge }: { charge: DueCharge }) {
  if (charge.status !== 'pending') return <span className="muted">—</span>;
  if (!charge.amountDue.payable || charge.amountDue.amountCents === undefined) return <span className="muted">Não pagável</span>;
  return <Money cents={charge.amountDue.amountCents} />;
}

/** The charges as a table, one card each on a phone: the customer first, then the amounts (issue 38). */
export function DueChargeTable({ charges }: { charges: DueCharge[] }) {
  return (
    <DataTable
      caption="Cobranças com vencimento"
      testId="due-charges"
      rows={charges}
      rowKey={(charge) => charge.transactionId}
      columns={[
        {
          header: 'Pagador',
          kind: 'title',
          cell: (charge) => (
            <a href={`#/cobrancas-com-vencimento/${charge.transactionId}`} className="wrap-anywhere">
              {charge.customer.name}
            </a>
          ),
        },
        { header: 'Valor', kind: 'money', cell: (charge) => <Money cents={charge.amountCents} /> },
        { header: 'A pagar hoje', kind: 'money', cell: (charge) => <AmountDueToday charge={charge} /> },
        { header: 'Vencimento', cell: (charge) => <span className="nowrap">{formatDate(charge.dueDate)}</span> },
        { header: 'Situação', cell: (charge) => <Status value={charge.status} label={statusLabel(charge.status)} /> },
      ]}
    />
  );
}

/**
 * "Cobranças com vencimento": GET /dashboard/api/v1/due-charges, newest first, filtered by situation and a
 * due-date range, in real pages (the cursor of each page kept, so "Anterior" goes back).
 */
export function DueChargesPage({ session }: { session: Session }) {
  const [status, setStatus] = useState('');
  const [dueFrom, setDueFrom] = useState('');
  const [dueTo, setDueTo] = useState('');
  // On a phone the filters fold away, so the list comes first; open where there is room (as Transações).
  const [filtersOpen, setFiltersOpen] = useState(() => window.matchMedia('(min-width: 641px)').matches);
  const activeFilters = [status, dueFrom, dueTo].filter(Boolean).length;
  const pages = useCursorPages();
  const cursor = pages.cursor;
  const query = {
    limit: 20,
    ...(status ? { status: status as DueChargeStatus } : {}),
    ...(dueFrom ? { dueFrom } : {}),
    ...(dueTo ? { dueTo } : {}),
    ...(cursor ? { cursor } : {}),
  };
  const listQuery = $api.useQuery('get', '/dashboard/api/v1/due-charges', { params: { query } });
  const list = listQuery.data;
  const problem = listQuery.error ? problemOf(listQuery.error) : undefined;
  const fieldProblem = problem?.field !== undefined && ['status', 'dueFrom', 'dueTo'].includes(problem.field);

  // Any change of filter starts again from the first page.
  const filter = (set: (value: string) => void) => (value: string) => {
    set(value);
    pages.restart();
  };

  return (
    <>
      <h1>Cobranças com vencimento</h1>
      <p className="muted">O Pix com data de vencimento, multa, juros e desconto, que substitui o boleto. Elas aparecem também em Transações.</p>
      {may(session, 'createDashboardDueCharge') ? (
        <p className="actions">
          <a className="button" href="#/cobrancas-com-vencimento/nova">
            Nova cobrança com vencimento
          </a>
        </p>
      ) : null}
      <details className="filters-panel" open={filtersOpen || fieldProblem} onToggle={(event) => setFiltersOpen(event.currentTarget.open)}>
        <summary>Filtros{activeFilters > 0 ? ` (${activeFilters} em uso)` : ''}</summary>
        <div className="filters" role="group" aria-label="Filtros de cobranças com vencimento">
          <SelectField
            label="Situação"
            name="status"
            value={status}
            onChange={filter(setStatus)}
            problem={problem}
            options={[{ value: '', label: 'Todas' }, ...STATUSES.map((value) => ({ value, label: statusLabel(value) }))]}
          />
          <Field label="Vencimento de" name="dueFrom" type="date" value={dueFrom} problem={problem} onChange={(event) => filter(setDueFrom)(event.target.value)} />
          <Field label="Vencimento até" name="dueTo" type="date" value={dueTo} problem={problem} onChange={(event) => filter(setDueTo)(event.target.value)} />
        </div>
      </details>
      <ListState filterProblem={fieldProblem} query={listQuery}>
        {list ? list.count === 0 ? <Notice>Nenhuma cobrança com vencimento.</Notice> : <DueChargeTable charges={list.dueCharges} /> : null}
      </ListState>
      <PageNav pages={pages} nextCursor={list?.nextCursor} />
    </>
  );
}
