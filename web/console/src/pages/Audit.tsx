import { useState } from 'react';
import { formatDateTime } from '../../../shared/format.ts';
import { DataTable } from '../../../shared/table.tsx';
import { Field, Notice, QueryState, SelectField } from '../../../shared/ui.tsx';
import { $api } from '../api.ts';
import { actorKindLabel, AUDIT_ACTION_LABEL, auditActionLabel, auditTargetLabel } from '../auditLabels.ts';

const json = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value, null, 2));
/** 50 entries a page; 20 on a phone, where each is a card (issue 38: the page ran about 7,000 px). */
const PAGE_SIZE = typeof window !== 'undefined' && window.matchMedia('(max-width: 640px)').matches ? 20 : 50;
const ACTION_OPTIONS = [
  { value: '', label: 'Todas' },
  ...Object.entries(AUDIT_ACTION_LABEL)
    .map(([value, label]) => ({ value, label }))
    .sort((a, b) => a.label.localeCompare(b.label, 'pt-BR')),
];

/**
 * The audit log: every operator action and the sign-ins and merchant actions (who, what, when, the values
 * before and after), newest first, filtered and paged (`beforeId`). Read only: the log is append-only.
 */
export function AuditPage({ query }: { query: URLSearchParams }) {
  const [filters, setFilters] = useState({ action: '', accountId: query.get('accountId') ?? '', actorId: '', targetId: '' });
  const [applied, setApplied] = useState(filters);
  /** The `beforeId` of each page seen before this one, and this page's (undefined: the newest). */
  const [pages, setPages] = useState<(number | undefined)[]>([undefined]);
  const beforeId = pages[pages.length - 1];
  const chosen = Object.fromEntries(Object.entries(applied).filter(([, value]) => value.trim() !== '').map(([key, value]) => [key, value.trim()]));
  const { data, isPending, error } = $api.useQuery('get', '/admin/v1/audit-log', { params: { query: { ...chosen, limit: PAGE_SIZE, ...(beforeId ? { beforeId } : {}) } } });
  const entries = data?.entries;
  return (
    <>
      <h1>Registro de auditoria</h1>
      <p className="muted">Somente leitura: nenhum operador pode alterar ou apagar um registro.</p>
      <form
        className="filters"
        role="search"
        aria-label="Filtros da auditoria"
        onSubmit={(event) => {
          event.preventDefault();
          setPages([undefined]);
          setApplied(filters);
        }}
      >
        <SelectField label="Ação" name="action" value={filters.action} options={ACTION_OPTIONS} onChange={(action) => setFilters({ ...filters, action })} />
        <Field label="Conta" name="accountId" value={filters.accountId} onChange={(event) => setFilters({ ...filters, accountId: event.target.value })} placeholder="acc_…" />
        <Field label="Quem (operador ou usuário)" name="actorId" value={filters.actorId} onChange={(event) => setFilters({ ...filters, actorId: event.target.value })} placeholder="op_…" />
        <Field label="Alvo" name="targetId" value={filters.targetId} onChange={(event) => setFilters({ ...filters, targetId: event.target.value })} />
        <button type="submit" className="secondary">
          Filtrar
        </button>
      </form>
      <QueryState isPending={isPending} error={error}>
        {entries?.length === 0 ? <Notice>Nenhum registro.</Notice> : null}
        {entries && entries.length > 0 ? (
          <DataTable
            caption="Registros de auditoria"
            testId="audit"
            rows={entries}
            rowKey={(entry) => entry.entryId}
            columns={[
              { header: 'Quando', cell: (entry) => formatDateTime(entry.at) },
              {
                header: 'Quem',
                cell: (entry) => (
                  <>
                    {entry.actor.name}
                    <div className="muted">
                      {actorKindLabel(entry.actor.type)}
                      {entry.actor.id ? ` · ${entry.actor.id}` : ''}
                    </div>
                  </>
                ),
              },
              // The card's title on a phone (placed first there by its kind), after who on a wide screen.
              { header: 'Ação', kind: 'title', cell: (entry) => auditActionLabel(entry.action) },
              {
                header: 'Alvo',
                cell: (entry) => (
                  <span className="break-anywhere">
                    {auditTargetLabel(entry.targetType)} {entry.targetId ?? ''}
                    {entry.accountId ? (
                      <>
                        {' · '}
                        <a href={`#/contas/${entry.accountId}`}>{entry.accountId}</a>
                      </>
                    ) : null}
                  </span>
                ),
              },
              {
                header: 'Antes e depois',
                cell: (entry) => (
                  <details>
                    <summary>Ver valores</summary>
                    <p className="muted">Antes</p>
                    <pre className="payload">{json(entry.before)}</pre>
                    <p className="muted">Depois</p>
                    <pre className="payload">{json(entry.after)}</pre>
                  </details>
                ),
              },
            ]}
          />
        ) : null}
        <nav className="pager" aria-label="Páginas da auditoria">
          <button type="button" className="secondary" disabled={pages.length === 1} onClick={() => setPages(pages.slice(0, -1))}>
            Mais recentes
          </button>
          <span>Página {pages.length}</span>
          <button
            type="button"
            className="secondary"
            disabled={!entries || entries.length < PAGE_SIZE}
            onClick={() => {
              const last = entries?.[entries.length - 1]?.entryId;
              if (last) setPages([...pages, last]);
            }}
          >
            Mais antigos
          </button>
        </nav>
      </QueryState>
    </>
  );
}
