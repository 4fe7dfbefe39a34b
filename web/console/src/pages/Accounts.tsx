import { useState } from 'react';
import type { ApiProblem } from '../../../shared/api.ts';
import { formatCnpj, formatDateTime } from '../../../shared/format.ts';
import { DocumentField } from '../../../shared/phone.tsx';
import { DataTable } from '../../../shared/table.tsx';
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
const EMAIL_FILTERS = [
  { value: '', label: 'Todos' },
  { value: 'true', label: 'Confirmado' },
  { value: 'false', label: 'Não confirmado' },
];
const EMPTY_FORM = { legalName: '', companyCnpj: '', responsibleCpf: '', email: '' };

/** Whether the account's e-mail was confirmed (issue 38): a sign-up that never opened its link is not yet an applicant. */
export function EmailConfirmation({ verified }: { verified: boolean | undefined }) {
  if (verified === undefined) return <Status value="released" label="Aberta pela equipe" />;
  return verified ? <Status value="approved" label="E-mail confirmado" /> : <Status value="rejected" label="E-mail não confirmado" />;
}

/**
 * Accounts: filtered by KYC status (pending first: the ones waiting for the service team), a page of 20 at a
 * time (the server's keyset cursor), a search within the page by name, CNPJ or e-mail, and a new account.
 */
export function AccountsPage({ session }: { session: OperatorSession }) {
  const [kycStatus, setKycStatus] = useState('all');
  const [emailVerified, setEmailVerified] = useState('');
  /** The cursors of the pages seen before this one (back), and this page's. */
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const { data, isPending, error } = $api.useQuery('get', '/admin/v1/accounts', {
    params: { query: { kycStatus, limit: String(PAGE_SIZE), ...(emailVerified ? { emailVerified } : {}), ...(cursor ? { cursor } : {}) } },
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
        <SelectField
          label="E-mail do cadastro"
          name="emailVerified"
          value={emailVerified}
          options={EMAIL_FILTERS}
          onChange={(value) => {
            setEmailVerified(value);
            setCursors([undefined]);
          }}
        />
        <Field label="Buscar nesta página" name="search" value={search} onChange={(event) => setSearch(event.target.value)} placeholder="Razão social, CNPJ, e-mail ou acc_…" />
      </div>
      <QueryState isPending={isPending} error={error}>
        {shown.length === 0 ? <Notice>{needle ? 'Nenhuma conta desta página corresponde à busca.' : 'Nenhuma conta nesta situação.'}</Notice> : null}
        {shown.length > 0 ? (
          <DataTable
            caption="Contas"
            testId="accounts"
            rows={shown}
            rowKey={(account) => account.accountId}
            columns={[
              {
                header: 'Conta',
                kind: 'title',
                cell: (account) => (
                  <>
                    <a href={`#/contas/${account.accountId}`}>{account.legalName.trim() === '' ? '(sem razão social)' : account.legalName}</a>
                    <div className="muted">{account.accountId}</div>
                  </>
                ),
              },
              {
                header: 'KYC',
                cell: (account) => (
                  <Status value={account.kycStatus === 'approved' ? 'approved' : account.kycStatus === 'rejected' ? 'rejected' : 'pending'} label={KYC_LABEL[account.kycStatus]} />
                ),
              },
              { header: 'E-mail do cadastro', cell: (account) => <EmailConfirmation verified={account.emailVerified} /> },
              { header: 'Situação', cell: (account) => (account.blocked ? <Status value="blocked" label="Bloqueada" /> : <Status value="active" label="Ativa" />) },
              { header: 'CNPJ', cell: (account) => <span className="nowrap">{formatCnpj(account.companyCnpj)}</span> },
              { header: 'E-mail', cell: (account) => <span className="break-anywhere">{account.email}</span> },
              { header: 'Criada em', cell: (account) => formatDateTime(account.createdAt) },
            ]}
          />
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
              <DocumentField label="CNPJ" name="companyCnpj" kind="cnpj" value={form.companyCnpj} onChange={(companyCnpj) => setForm({ ...form, companyCnpj })} problem={problem} />
              <DocumentField label="CPF do responsável" name="responsibleCpf" kind="cpf" value={form.responsibleCpf} onChange={(responsibleCpf) => setForm({ ...form, responsibleCpf })} problem={problem} />
              <Field label="E-mail" name="email" type="email" value={form.email} onChange={(event) => setForm({ ...form, email: event.target.value })} problem={problem} />
            </div>
          </ActionForm>
        </section>
      ) : null}
    </>
  );
}
