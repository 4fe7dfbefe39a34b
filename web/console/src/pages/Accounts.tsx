import { useCallback, useEffect, useState } from 'react';
import { problemOf, type ApiProblem } from '../../../shared/api.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { ActionForm, Field, FormProblem, Loading, Notice, Status } from '../../../shared/ui.tsx';
import { api, may, type OperatorSession, type Schemas } from '../api.ts';

export const KYC_LABEL = { pending: 'KYC pendente', approved: 'KYC aprovado', rejected: 'KYC recusado' } as const;

/** Accounts: KYC status and blocking at a glance, a search by name, CNPJ or e-mail, and a new account. */
export function AccountsPage({ session }: { session: OperatorSession }) {
  const [accounts, setAccounts] = useState<Schemas['Account'][]>();
  const [search, setSearch] = useState('');
  const [problem, setProblem] = useState<ApiProblem>();
  const [listProblem, setListProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();
  const [form, setForm] = useState({ legalName: '', companyCnpj: '', responsibleCpf: '', email: '' });

  const load = useCallback(async () => {
    const { data, error } = await api.GET('/admin/v1/accounts');
    if (error) setListProblem(problemOf(error));
    else setAccounts(data.accounts);
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const needle = search.trim().toLowerCase();
  const digits = needle.replace(/\D/g, '');
  const shown = (accounts ?? []).filter(
    (account) =>
      !needle ||
      account.legalName.toLowerCase().includes(needle) ||
      account.email.toLowerCase().includes(needle) ||
      account.accountId.includes(needle) ||
      (digits.length >= 3 && account.companyCnpj.includes(digits)),
  );
  return (
    <>
      <h1>Contas</h1>
      {notice ? <Notice>{notice}</Notice> : null}
      <div className="filters" role="search" aria-label="Buscar contas">
        <Field label="Buscar" name="search" value={search} onChange={(event) => setSearch(event.target.value)} placeholder="Razão social, CNPJ, e-mail ou acc_…" />
      </div>
      <FormProblem problem={listProblem} />
      {!accounts ? (
        <Loading />
      ) : (
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
                  <a href={`#/contas/${account.accountId}`}>{account.legalName}</a>
                  <div className="muted">{account.accountId}</div>
                </td>
                <td>{account.companyCnpj}</td>
                <td>{account.email}</td>
                <td>
                  <Status value={account.kycStatus === 'approved' ? 'approved' : account.kycStatus === 'rejected' ? 'rejected' : 'pending'} label={KYC_LABEL[account.kycStatus]} />
                </td>
                <td>{account.blocked ? <Status value="blocked" label="Bloqueada" /> : <Status value="active" label="Ativa" />}</td>
                <td>{formatDateTime(account.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {may(session, 'createAccount') ? (
        <section aria-label="Nova conta">
          <h2>Nova conta</h2>
          <ActionForm
            label="Criar conta"
            fields={Object.keys(form)}
            problem={problem}
            onProblem={setProblem}
            action={async () => {
              const { data, error } = await api.POST('/admin/v1/accounts', { body: form });
              if (error) return problemOf(error);
              setNotice(`Conta ${data.legalName} criada (${data.accountId}).`);
              setForm({ legalName: '', companyCnpj: '', responsibleCpf: '', email: '' });
              await load();
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
