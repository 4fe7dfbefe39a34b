import { useState } from 'react';
import { problemOf } from '../../../shared/api.ts';
import { formatDate } from '../../../shared/format.ts';
import { DataTable } from '../../../shared/table.tsx';
import { Money, Notice, SelectField, Status } from '../../../shared/ui.tsx';
import { $api, type Session } from '../api.ts';
import { ListState, PageNav, useCursorPages } from '../lists.tsx';
import { periodicityLabel, RECURRENCE_STATUSES, recurrenceStatusLabel, recurrenceStatusTone, type Recurrence, type RecurrenceStatus } from '../recurrenceTerms.ts';
import { may } from '../roles.ts';

/** The amount of each cycle: the fixed one, or "Variável". */
export function CycleAmount({ recurrence }: { recurrence: Recurrence }) {
  return recurrence.amountCents === undefined ? <span className="muted">Variável</span> : <Money cents={recurrence.amountCents} />;
}

/** The recurrences as a table, one card each on a phone: the payer first, then the next cycle. */
export function RecurrenceTable({ recurrences }: { recurrences: Recurrence[] }) {
  return (
    <DataTable
      caption="Recorrências"
      testId="recurrences"
      rows={recurrences}
      rowKey={(recurrence) => recurrence.id}
      columns={[
        {
          header: 'Pagador',
          kind: 'title',
          cell: (recurrence) => (
            <a href={`#/recorrencias/${recurrence.id}`} className="wrap-anywhere">
              {recurrence.payer.name}
            </a>
          ),
        },
        { header: 'Valor', kind: 'money', cell: (recurrence) => <CycleAmount recurrence={recurrence} /> },
        { header: 'Contrato', cell: (recurrence) => <span className="wrap-anywhere">{recurrence.object ? `${recurrence.contract} · ${recurrence.object}` : recurrence.contract}</span> },
        { header: 'Periodicidade', cell: (recurrence) => periodicityLabel(recurrence.periodicity) },
        { header: 'Próximo ciclo', cell: (recurrence) => <span className="nowrap">{recurrence.nextCycleDate ? formatDate(recurrence.nextCycleDate) : '—'}</span> },
        { header: 'Situação', cell: (recurrence) => <Status value={recurrenceStatusTone(recurrence.status)} label={recurrenceStatusLabel(recurrence.status)} /> },
      ]}
    />
  );
}

/**
 * "Recorrências" (Pix Automático): GET /dashboard/api/v1/recurrences, newest first, filtered by situation,
 * in real pages (the cursor of each page kept, so "Anterior" goes back).
 */
export function RecurrencesPage({ session }: { session: Session }) {
  const [status, setStatus] = useState('');
  const pages = useCursorPages();
  const cursor = pages.cursor;
  const query = { limit: 20, ...(status ? { status: status as RecurrenceStatus } : {}), ...(cursor ? { cursor } : {}) };
  const listQuery = $api.useQuery('get', '/dashboard/api/v1/recurrences', { params: { query } });
  const list = listQuery.data;
  const problem = listQuery.error ? problemOf(listQuery.error) : undefined;

  return (
    <>
      <h1>Recorrências</h1>
      <p className="muted">Pix Automático: o pagador autoriza uma vez no app do banco dele, e cada cobrança é debitada na data, sem outra ação. Os pagamentos aparecem também em Transações.</p>
      {may(session, 'createDashboardRecurrence') ? (
        <p className="actions">
          <a className="button" href="#/recorrencias/nova">
            Nova recorrência
          </a>
        </p>
      ) : null}
      <div className="filters" role="group" aria-label="Filtros de recorrências">
        <SelectField
          label="Situação"
          name="status"
          value={status}
          onChange={(value) => {
            setStatus(value);
            pages.restart();
          }}
          problem={problem}
          options={[{ value: '', label: 'Todas' }, ...RECURRENCE_STATUSES.map((value) => ({ value, label: recurrenceStatusLabel(value) }))]}
        />
      </div>
      <ListState filterProblem={problem?.field === 'status'} query={listQuery}>
        {list ? list.count === 0 ? <Notice>Nenhuma recorrência.</Notice> : <RecurrenceTable recurrences={list.recurrences} /> : null}
      </ListState>
      <PageNav pages={pages} nextCursor={list?.nextCursor} />
    </>
  );
}
