import { useState } from 'react';
import { problemOf } from '../../../shared/api.ts';
import { formatDateTime, saoPauloDayStart } from '../../../shared/format.ts';
import { DataTable } from '../../../shared/table.tsx';
import { Field, Money, Notice, QueryState } from '../../../shared/ui.tsx';
import { $api, type Schemas } from '../api.ts';
import { CsvExport } from './CsvExport.tsx';

type Entry = Schemas['BalanceEntry'];

const ENTRY_LABEL: Record<Entry['type'], string> = {
  charge_paid: 'Cobrança recebida',
  fee: 'Tarifa',
  withdrawal: 'Saque',
  withdrawal_fee: 'Tarifa de saque',
  withdrawal_returned: 'Saque devolvido',
  refund: 'Devolução',
  refund_returned: 'Devolução não realizada',
  chargeback: 'Contestação',
  adjustment: 'Ajuste',
};

/**
 * Extrato: GET /v1/balance/entries, every movement of the available balance, newest first, with the balance
 * after each; a period of São Paulo days, real pages, and the CSV export of the period.
 */
export function StatementPage() {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const createdFrom = from ? saoPauloDayStart(from) : undefined;
  const toStart = to ? saoPauloDayStart(to) : undefined;
  const query = {
    limit: 50,
    ...(createdFrom !== undefined ? { createdFrom } : {}),
    ...(toStart !== undefined ? { createdTo: toStart + 86_400_000 } : {}),
    ...(cursor ? { cursor } : {}),
  };
  const pageQuery = $api.useQuery('get', '/dashboard/api/v1/statement', { params: { query } });
  const page = pageQuery.data;
  const problem = pageQuery.error ? problemOf(pageQuery.error) : undefined;

  return (
    <>
      <h1>Extrato</h1>
      <p className="muted">
        Cada movimento do saldo disponível, do mais recente ao mais antigo, com o saldo logo depois dele. Bloqueios cautelares não movem o saldo disponível
        (reduzem o que pode ser sacado) e não aparecem aqui.
      </p>
      <div className="filters" role="group" aria-label="Período do extrato">
        <Field
          label="De"
          name="createdFrom"
          type="date"
          value={from}
          problem={problem}
          onChange={(event) => {
            setFrom(event.target.value);
            setCursors([undefined]);
          }}
        />
        <Field
          label="Até"
          name="createdTo"
          type="date"
          value={to}
          problem={problem}
          onChange={(event) => {
            setTo(event.target.value);
            setCursors([undefined]);
          }}
        />
      </div>
      <CsvExport path="/dashboard/api/v1/statement.csv" from={from} to={to} />
      {!page ? (
        <QueryState isPending={pageQuery.isPending} error={pageQuery.error} />
      ) : page.count === 0 ? (
        <Notice>Nenhum movimento no período.</Notice>
      ) : (
        <DataTable
          caption="Extrato"
          testId="statement"
          rows={page.entries}
          rowKey={(entry) => entry.entryId}
          columns={[
            { header: 'Movimento', kind: 'title', cell: (entry) => ENTRY_LABEL[entry.type] ?? entry.type },
            { header: 'Valor', kind: 'money', cell: (entry) => <Money cents={entry.amountCents} /> },
            { header: 'Saldo após', kind: 'money', cell: (entry) => <Money cents={entry.balanceAfterCents} /> },
            { header: 'Data', cell: (entry) => formatDateTime(entry.createdAt) },
            {
              header: 'Transação',
              cell: (entry) => (entry.transactionId ? <a href={`#/transacoes/${entry.transactionId}`} className="wrap-anywhere">{entry.transactionId}</a> : '—'),
            },
          ]}
        />
      )}
      <nav className="actions" aria-label="Páginas">
        <button type="button" className="secondary" disabled={cursors.length <= 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          ← Anterior
        </button>
        <span className="muted">Página {cursors.length}</span>
        <button type="button" className="secondary" disabled={!page?.nextCursor} onClick={() => page?.nextCursor && setCursors([...cursors, page.nextCursor])}>
          Próxima →
        </button>
      </nav>
    </>
  );
}
