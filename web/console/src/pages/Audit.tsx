import { useCallback, useEffect, useState } from 'react';
import { problemOf, type ApiProblem } from '../../../shared/api.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { Field, FormProblem, Loading, Notice } from '../../../shared/ui.tsx';
import { api, type Schemas } from '../api.ts';

const json = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value, null, 2));

/**
 * The audit log: every operator action (who, what, when, the values before and after), newest first. Read
 * only: the log is append-only in the database and no operation changes it.
 */
export function AuditPage({ query }: { query: URLSearchParams }) {
  const [filters, setFilters] = useState({ action: '', accountId: query.get('accountId') ?? '', actorId: '', targetId: '' });
  const [applied, setApplied] = useState(filters);
  const [entries, setEntries] = useState<Schemas['AuditEntry'][]>();
  const [problem, setProblem] = useState<ApiProblem>();
  const [beforeId, setBeforeId] = useState<number>();

  const load = useCallback(async () => {
    const chosen = Object.fromEntries(Object.entries(applied).filter(([, value]) => value.trim() !== '').map(([key, value]) => [key, value.trim()]));
    const { data, error } = await api.GET('/admin/v1/audit-log', { params: { query: { ...chosen, limit: 50, ...(beforeId ? { beforeId } : {}) } } });
    setProblem(error ? problemOf(error) : undefined);
    if (data) setEntries(data.entries);
  }, [applied, beforeId]);

  useEffect(() => {
    void load();
  }, [load]);

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
          setBeforeId(undefined);
          setApplied(filters);
        }}
      >
        <Field label="Ação" name="action" value={filters.action} onChange={(event) => setFilters({ ...filters, action: event.target.value })} placeholder="recipient.approve" problem={problem} />
        <Field label="Conta" name="accountId" value={filters.accountId} onChange={(event) => setFilters({ ...filters, accountId: event.target.value })} placeholder="acc_…" problem={problem} />
        <Field label="Operador" name="actorId" value={filters.actorId} onChange={(event) => setFilters({ ...filters, actorId: event.target.value })} placeholder="op_…" problem={problem} />
        <Field label="Alvo" name="targetId" value={filters.targetId} onChange={(event) => setFilters({ ...filters, targetId: event.target.value })} problem={problem} />
        <button type="submit" className="secondary">
          Filtrar
        </button>
      </form>
      <FormProblem problem={problem} fields={['action', 'accountId', 'actorId', 'targetId']} />
      {!entries ? (
        <Loading />
      ) : entries.length === 0 ? (
        <Notice>Nenhum registro.</Notice>
      ) : (
        <table>
          <caption className="sr-only">Registros de auditoria</caption>
          <thead>
            <tr>
              <th scope="col">Quando</th>
              <th scope="col">Quem</th>
              <th scope="col">Ação</th>
              <th scope="col">Alvo</th>
              <th scope="col">Antes e depois</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.entryId}>
                <td>{formatDateTime(entry.at)}</td>
                <td>
                  {entry.actor.name}
                  <div className="muted">{entry.actor.type === 'operator' ? entry.actor.id : entry.actor.type === 'automation' ? 'token de automação' : 'sistema'}</div>
                </td>
                <td>{entry.action}</td>
                <td>
                  {entry.targetType} {entry.targetId ?? ''}
                  {entry.accountId ? (
                    <div>
                      <a href={`#/contas/${entry.accountId}`}>{entry.accountId}</a>
                    </div>
                  ) : null}
                </td>
                <td>
                  <details>
                    <summary>Ver valores</summary>
                    <p className="muted">Antes</p>
                    <pre className="payload">{json(entry.before)}</pre>
                    <p className="muted">Depois</p>
                    <pre className="payload">{json(entry.after)}</pre>
                  </details>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="actions">
        {beforeId ? (
          <button type="button" className="secondary" onClick={() => setBeforeId(undefined)}>
            Mais recentes
          </button>
        ) : null}
        {entries && entries.length === 50 ? (
          <button type="button" className="secondary" onClick={() => setBeforeId(entries[entries.length - 1]?.entryId)}>
            Mais antigos
          </button>
        ) : null}
      </div>
    </>
  );
}
