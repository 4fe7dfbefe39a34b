import { useState } from 'react';
import type { ApiProblem } from '../../../shared/api.ts';
import { formatCnpj, formatDateTime } from '../../../shared/format.ts';
import { ActionForm, Field, Notice, QueryState, SelectField, Status } from '../../../shared/ui.tsx';
import { $api, may, type OperatorSession } from '../api.ts';
import { outcome, useInvalidate } from '../queries.ts';

export const KYC_LABEL = { pending: 'KYC pendente', approved: 'KYC aprovado', rejected: 'KYC recusado' } as const;

const PAGE_SIZE = 20;
const KYC_FILTERS = [
  { value: 'pending', label: 'KYC pendente' },
  { value: 'approved', label: 'KYC aprovado' },
  { value: 'rejected', label: 'KYC recusado' },
  { value: 'all', label: 'Todas' },
];
const EMPTY_FORM = { legalName: '', companyCnpj: '', responsibleCpf: '', email: '' };

/**
 * Accounts: filtered by KYC status (pending first: the ones waiting for the service team), a page of 20 at a
 * time (the server's keyset cursor), a search within the page by name, CNPJ or e-mail, and a new account.
 */
export function AccountsPage({ session }: { session: OperatorSession }) {
  const [kycStatus, setKycStatus] = useState('all');
  /** The cursors of the pages seen before this one (back), and this page's. */
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const { data, isPending, error } = $api.useQuery('get', '/admin/v1/accounts', {
    params: { query: { kycStatus, limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) } },
  });
  const create = $api.useMutation('post', '/admin/v1/accounts');
  const invalidate = useInvalidate();
  const [search, setSearch] = useState('');
  const [problem, setProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();
  const [form, setForm] = useState(EMPTY_FORM);

  const needle = search.trim().toLowerCase();
  const compact = needle.replace(/[^0-9a-z]/g, '');
  const shown = (data?.accounts ?? []).filter(
    (account) =>
      !needle ||
      account.legalName.toLowerCase().includes(needle) ||
      account.email.toLowerCase().includes(needle) ||
      account.accountId.includes(needle) ||
      (compact.length >= 3 && account.companyCnpj.toLowerCase().includes(compact)),
  );
  const page = cursors.length;
  return (
    <>
      <h1>Contas</h1>
      {notice ? <Notice>{notice}</Notice> : null}
      <div className="filters" role="search" aria-label="Filtrar contas">
        <SelectField
          label="Situação do KYC"
          name="kycStatus"
          value={kycStatus}
          options={KYC_FILTERS}
          onChange={(value) => {
            setKycStatus(value);
            setCursors([undefined]);
          }}
        />
        <Field label="Buscar nesta página" name="search" value={search} onChange={(event) => setSearch(event.target.value)} placeholder="Razão social, CNPJ, e-mail ou acc_…" />
      </div>
      <QueryState isPending={isPending} error={error}>
        {shown.length === 0 ? <Notice>{needle ? 'Nenhuma conta desta página corresponde à busca.' : 'Nenhuma conta nesta situação.'}</Notice> : null}
        {shown.length > 0 ? (
          <div className="table-scroll">
            <table>
              <caption className="sr-only">Contas</caption>
              <thead>
                <tr>
                  <th scope="col">Conta</th>
                  <th scope="col">CNPJ</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">KYC</th>
                  <th scope="col">Situação</th>
                  <th scope="col">Criada em</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((account) => (
                  <tr key={account.accountId}>
                    <td>
                      <a href={`#/contas/${account.accountId}`}>{account.legalName.trim() === '' ? '(sem razão social)' : account.legalName}</a>
                      <div className="muted">{account.accountId}</div>
                    </td>
                    <td style={{ whiteSpace: 'nowrap' }}>{formatCnpj(account.companyCnpj)}</td>
                    <td className="break-anywhere">{account.email}</td>
                    <td>
                      <Status value={account.kycStatus === 'approved' ? 'approved' : account.kycStatus === 'rejected' ? 'rejected' : 'pending'} label={KYC_LABEL[account.kycStatus]} />
                    </td>
                    <td>{account.blocked ? <Status value="blocked" label="Bloqueada" /> : <Status value="active" label="Ativa" />}</td>
                    <td>{formatDateTime(account.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <nav className="pager" aria-label="Páginas de contas">
          <button type="button" className="secondary" disabled={page === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
            Página anterior
          </button>
          <span>Página {page}</span>
          <button type="button" className="secondary" disabled={!data?.nextCursor} onClick={() => data?.nextCursor && setCursors([...cursors, data.nextCursor])}>
            Próxima página
          </button>
        </nav>
      </QueryState>
      {may(session, 'createAccount') ? (
        <section aria-label="Nova conta">
          <h2>Nova conta</h2>
          <ActionForm
            label="Criar conta"
            fields={Object.keys(form)}
            problem={problem}
            onProblem={setProblem}
            action={async () => {
              const result = await outcome(() => create.mutateAsync({ body: form }));
              if (result.problem) return result.problem;
              setNotice(`Conta ${result.data.legalName} criada (${result.data.accountId}).`);
              setForm(EMPTY_FORM);
              await invalidate('/admin/v1/accounts', '/admin/v1/audit-log');
              return undefined;
            }}
          >
            <div className="grid-2">
              <Field label="Razão social" name="legalName" value={form.legalName} onChange={(event) => setForm({ ...form, legalName: event.target.value })} problem={problem} />
              <Field label="CNPJ" name="companyCnpj" value={form.companyCnpj} onChange={(event) => setForm({ ...form, companyCnpj: event.target.value })} problem={problem} />
              <Field label="CPF do responsável" name="responsibleCpf" value={form.responsibleCpf} onChange={(event) => setForm({ ...form, responsibleCpf: event.target.value })} problem={problem} />
              <Field label="E-mail" name="email" type="email" value={form.email} onChange={(event) => setForm({ ...form, email: event.target.value })} problem={problem} />
            </div>
          </ActionForm>
        </section>
      ) : null}
    </>
  );
}
