import { useState, type FormEvent } from 'react';
import { formatBrl, formatDateTime, parseBrl, saoPauloDayStart, statusLabel } from '../../../shared/format.ts';
import { navigate } from '../../../shared/router.ts';
import { DataTable } from '../../../shared/table.tsx';
import { Field, FormProblem, Money, Notice, QueryState, SelectField, Status } from '../../../shared/ui.tsx';
import { $api, type Schemas } from '../api.ts';
import { transactionStatusLabel } from '../transactionFacts.ts';
import { problemOf } from '../../../shared/api.ts';
import { CsvExport } from './CsvExport.tsx';

type Transaction = Schemas['Transaction'];
export const TYPE_LABEL = { pix_in: 'Cobrança', withdrawal: 'Saque' } as const;

/** The transactions as a table, one card each on a phone: the amount and fee first (issue 38, defect 4). */
export function TransactionTable({ transactions }: { transactions: Transaction[] }) {
  return (
    <DataTable
      caption="Transações"
      testId="transactions"
      rows={transactions}
      rowKey={(transaction) => transaction.transactionId}
      columns={[
        {
          header: 'Transação',
          kind: 'title',
          cell: (transaction) => (
            <>
              <a href={`#/transacoes/${transaction.transactionId}`} className="wrap-anywhere">
                {TYPE_LABEL[transaction.type]} {transaction.transactionId}
              </a>
            </>
          ),
        },
        { header: 'Valor', kind: 'money', cell: (transaction) => <Money cents={transaction.amountCents} /> },
        { header: 'Tarifa', kind: 'money', cell: (transaction) => <Money cents={transaction.feeCents} /> },
        { header: 'Situação', cell: (transaction) => <Status value={transaction.status} label={transactionStatusLabel(transaction)} /> },
        { header: 'Referência', cell: (transaction) => <span className="wrap-anywhere">{transaction.externalRef ?? '—'}</span> },
        { header: 'Criada em', cell: (transaction) => formatDateTime(transaction.createdAt) },
      ]}
    />
  );
}

/** What the search looks for, in words (as the server reads it: src/dashboard/transactionSearch.ts). */
function searchDescription(q: string): string {
  const parts = [`referência que começa com “${q}”`];
  const id = /^(?:tx_)?([0-9a-fA-F]{4,24})$/.exec(q);
  if (id) parts.push(`identificador que começa com tx_${id[1]!.toLowerCase()}`);
  const cents = parseBrl(q);
  if (cents !== undefined && cents > 0) parts.push(`valor de ${formatBrl(cents)}`);
  return `Transações com ${parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} ou ${parts[parts.length - 1]}`}.`;
}

const STATUSES = ['pending', 'processing', 'pending_approval', 'paid', 'failed', 'failed_unknown', 'cancelled', 'expired', 'refunded', 'partially_refunded'] as const;
type TransactionStatus = (typeof STATUSES)[number];

/**
 * Transactions: GET /v1/transactions's filters (type, status, a period of São Paulo days, an externalRef),
 * a search by transaction id or externalRef, real pages (the cursor of each page kept, so "Anterior" goes
 * back), and the CSV export of the period.
 */
export function TransactionsPage() {
  const [type, setType] = useState('');
  const [status, setStatus] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [search, setSearch] = useState('');
  /** The search applied (GET /transactions?q=): reference prefix, id prefix or amount in reais. */
  const [q, setQ] = useState('');
  const [limit, setLimit] = useState('50');
  // On a phone the filters fold away, so the list (its amounts) comes first; open where there is room (issue 38).
  const [filtersOpen, setFiltersOpen] = useState(() => window.matchMedia('(min-width: 641px)').matches);
  const activeFilters = [type, status, from, to].filter(Boolean).length;
  // The cursors that led to each page read so far: the last one is the current page's.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];

  const createdFrom = from ? saoPauloDayStart(from) : undefined;
  const dayAfterTo = to ? saoPauloDayStart(to) : undefined;
  const query = {
    limit: Number(limit),
    ...(type === 'pix_in' ? { type: 'pix_in' as const } : type === 'withdrawal' ? { type: 'withdrawal' as const } : {}),
    ...(status ? { status: status as TransactionStatus } : {}),
    ...(createdFrom !== undefined ? { createdFrom } : {}),
    ...(dayAfterTo !== undefined ? { createdTo: dayAfterTo + 86_400_000 } : {}),
    ...(q ? { q } : {}),
    ...(cursor ? { cursor } : {}),
  };
  const listQuery = $api.useQuery('get', '/dashboard/api/v1/transactions', { params: { query } });
  const list = listQuery.data;
  const problem = listQuery.error ? problemOf(listQuery.error) : undefined;
  const filterFields = ['type', 'status', 'createdFrom', 'createdTo', 'limit', 'q'];
  const fieldProblem = problem?.field !== undefined && filterFields.includes(problem.field);

  // Any change of filter starts again from the first page.
  const filter = (set: (value: string) => void) => (value: string) => {
    set(value);
    setCursors([undefined]);
  };

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    const text = search.trim();
    if (/^tx_[0-9a-f]{24}$/.test(text)) {
      navigate(`/transacoes/${text}`);
      return;
    }
    filter(setQ)(text);
  };

  return (
    <>
      <h1>Transações</h1>
      <p className="actions">
        <a className="button" href="#/cobrancas/nova">
          Nova cobrança
        </a>
        <a className="button secondary" href="#/cobrancas-com-vencimento">
          Cobranças com vencimento
        </a>
        <a className="button secondary" href="#/links-de-pagamento">
          Links de pagamento
        </a>
        <a className="button secondary" href="#/qr-codes-estaticos">
          QR codes estáticos
        </a>
      </p>
      <form className="filters" role="search" aria-label="Buscar transação" onSubmit={submitSearch}>
        <Field
          label="Buscar por referência, valor ou identificador"
          name="q"
          value={search}
          type="search"
          enterKeyHint="search"
          placeholder="pedido-123, 150,00 ou tx_3fa9"
          hint="Referências e identificadores pelo começo; valores em reais."
          problem={problem}
          onChange={(event) => setSearch(event.target.value)}
        />
        <button type="submit" className="secondary">
          Buscar
        </button>
        {q ? (
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setSearch('');
              filter(setQ)('');
            }}
          >
            Limpar busca
          </button>
        ) : null}
      </form>
      <details className="filters-panel" open={filtersOpen} onToggle={(event) => setFiltersOpen(event.currentTarget.open)}>
        <summary>
          Filtros e exportação{activeFilters > 0 ? ` (${activeFilters} em uso)` : ''}
        </summary>
      <div className="filters" role="group" aria-label="Filtros de transações">
        <SelectField
          label="Tipo"
          name="type"
          value={type}
          onChange={filter(setType)}
          problem={problem}
          options={[
            { value: '', label: 'Todas' },
            { value: 'pix_in', label: 'Cobranças' },
            { value: 'withdrawal', label: 'Saques' },
          ]}
        />
        <SelectField
          label="Situação"
          name="status"
          value={status}
          onChange={filter(setStatus)}
          problem={problem}
          options={[{ value: '', label: 'Todas' }, ...STATUSES.map((value) => ({ value, label: statusLabel(value) }))]}
        />
        <Field label="De" name="createdFrom" type="date" value={from} problem={problem} onChange={(event) => filter(setFrom)(event.target.value)} />
        <Field label="Até" name="createdTo" type="date" value={to} problem={problem} onChange={(event) => filter(setTo)(event.target.value)} />
        <SelectField
          label="Por página"
          name="limit"
          value={limit}
          onChange={filter(setLimit)}
          problem={problem}
          options={['10', '50', '100'].map((value) => ({ value, label: value }))}
        />
      </div>
      <CsvExport path="/dashboard/api/v1/transactions.csv" from={from} to={to} query={{ ...(type ? { type } : {}), ...(status ? { status } : {}) }} />
      </details>
      {q ? <Notice>{searchDescription(q)}</Notice> : null}
      {fieldProblem ? (
        <FormProblem problem={{ error: 'Corrija o filtro indicado acima.' }} />
      ) : (
        <QueryState isPending={listQuery.isPending} error={listQuery.error}>
          {list ? list.count === 0 ? <Notice>Nenhuma transação.</Notice> : <TransactionTable transactions={list.transactions} /> : null}
        </QueryState>
      )}
      <nav className="actions" aria-label="Páginas">
        <button type="button" className="secondary" disabled={cursors.length <= 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          ← Anterior
        </button>
        <span className="muted">Página {cursors.length}</span>
        <button
          type="button"
          className="secondary"
          disabled={!list?.nextCursor}
          onClick={() => list?.nextCursor && setCursors([...cursors, list.nextCursor])}
        >
          Próxima →
        </button>
      </nav>
    </>
  );
}
