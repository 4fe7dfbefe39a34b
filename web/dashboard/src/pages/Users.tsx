import { useState } from 'react';
import { problemOf, type ApiProblem } from '../../../shared/api.ts';
import { formatDateTime, formatDay } from '../../../shared/format.ts';
import { DataTable } from '../../../shared/table.tsx';
import { ActionButton, ActionForm, ConfirmButton, Field, FormProblem, Notice, QueryState, SelectField, Status } from '../../../shared/ui.tsx';
import { $api, api, type Schemas, type Session } from '../api.ts';
import { useInvalidate } from '../data.ts';
import { may } from '../roles.ts';
import { TeamTwoFactorSection } from './UsersTeamTwoFactor.tsx';

type Role = Schemas['UserRole'];
export const ROLE_LABEL: Record<Role, string> = { owner: 'Proprietário', admin: 'Administrador', developer: 'Desenvolvedor', viewer: 'Leitura' };

/** Whether a person can sign in, or their invitation is pending until a date, or expired (issue 38, defect 8). */
function MemberStatus({ user }: { user: Schemas['DashboardUser'] }) {
  if (!user.active) return <Status value="deactivated" label="Removido" />;
  if (!user.invitationPending) return <Status value="active" label="Ativo" />;
  if (user.invitationExpired) return <Status value="expired" label={`Convite expirado em ${formatDay(user.invitationExpiresAt)}`} />;
  return <Status value="pending" label={`Convite pendente até ${formatDay(user.invitationExpiresAt)}`} />;
}

/** Users of the account: invite by e-mail with a role, change a role, remove someone, invite again once expired. */
export function UsersPage({ session }: { session: Session }) {
  const usersQuery = $api.useQuery('get', '/dashboard/api/v1/users');
  const users = usersQuery.data?.users;
  const invalidate = useInvalidate();
  const [form, setForm] = useState({ email: '', name: '', role: 'developer' });
  const [problem, setProblem] = useState<ApiProblem>();
  const [listProblem, setListProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();

  const load = () => invalidate('/dashboard/api/v1/users');

  const canManage = may(session, 'inviteUser');
  // Only an owner may make someone an owner.
  const grantable: Role[] = session.user.role === 'owner' ? ['owner', 'admin', 'developer', 'viewer'] : ['admin', 'developer', 'viewer'];
  const ROLE_OPTIONS = grantable.map((value) => ({ value, label: ROLE_LABEL[value] }));
  const changeRole = async (user: Schemas['DashboardUser'], role: string) => {
    const { error } = await api.PATCH('/dashboard/api/v1/users/{userId}', { params: { path: { userId: user.userId } }, body: { role: role as Role } });
    setListProblem(error ? problemOf(error) : undefined);
    if (!error) setNotice(`${user.name} agora é ${ROLE_LABEL[role as Role]}.`);
    await load();
  };
  const editable = (user: Schemas['DashboardUser']) => canManage && user.role !== 'owner' && user.userId !== session.user.userId;
  /** An invitation that expired unaccepted is sent again: a new link (or notice) and 7 more days (issue 38). */
  const reinvite = async (user: Schemas['DashboardUser']) => {
    const { error } = await api.POST('/dashboard/api/v1/users', { body: { email: user.email, name: user.name, role: user.role } });
    setListProblem(error ? problemOf(error) : undefined);
    if (!error) setNotice(`Convite enviado de novo para ${user.email}: vale mais 7 dias.`);
    await load();
  };
  const remove = async (user: Schemas['DashboardUser']) => {
    const { error } = await api.DELETE('/dashboard/api/v1/users/{userId}', { params: { path: { userId: user.userId } } });
    setListProblem(error ? problemOf(error) : undefined);
    if (!error) setNotice(`${user.name} foi removido da conta.`);
    await load();
  };

  return (
    <>
      <h1>Usuários</h1>
      <p className="muted">
        Proprietário e administradores convidam e removem pessoas; desenvolvedores cuidam de chaves e webhooks; leitura só consulta. Saques e
        destinatários: proprietário e administradores.
      </p>
      {notice ? <Notice>{notice}</Notice> : null}
      <TeamTwoFactorSection session={session} />
      {canManage ? (
        <section aria-label="Convidar usuário">
          <h2>Convidar</h2>
          <ActionForm
            label="Enviar convite"
            fields={['email', 'name', 'role']}
            problem={problem}
            onProblem={setProblem}
            action={async () => {
              setNotice(undefined);
              const { error } = await api.POST('/dashboard/api/v1/users', { body: { email: form.email, name: form.name, role: form.role as Role } });
              if (error) return problemOf(error);
              // The same words whether or not the e-mail can join (an e-mail of another account gets a notice instead of a link).
              setNotice(`Convite registrado para ${form.email.trim().toLowerCase()}: a pessoa recebe por e-mail um link válido por 7 dias. Sem aceite nesse prazo, o convite expira e pode ser enviado de novo.`);
              setForm({ email: '', name: '', role: 'developer' });
              await load();
              return undefined;
            }}
          >
            <div className="grid-2">
              <Field label="Nome" name="name" value={form.name} onChange={(event) => setForm({ ...form, name: event.target.value })} problem={problem} />
              <Field label="E-mail" name="email" type="email" value={form.email} onChange={(event) => setForm({ ...form, email: event.target.value })} problem={problem} />
            </div>
            <SelectField label="Papel" name="role" value={form.role} onChange={(role) => setForm({ ...form, role })} problem={problem} options={ROLE_OPTIONS} />
          </ActionForm>
        </section>
      ) : null}
      <FormProblem problem={listProblem} />
      {!users ? (
        <QueryState isPending={usersQuery.isPending} error={usersQuery.error} />
      ) : (
        <DataTable
          caption="Usuários da conta"
          testId="users"
          rows={users}
          rowKey={(user) => user.userId}
          columns={[
            {
              header: 'Nome',
              kind: 'title',
              cell: (user) => (
                <>
                  {user.name}
                  <div className="muted wrap-anywhere">{user.email}</div>
                </>
              ),
            },
            { header: 'Situação', cell: (user) => <MemberStatus user={user} /> },
            {
              header: 'Papel',
              cell: (user) =>
                editable(user) ? (
                  <SelectField label={`Papel de ${user.name}`} labelHidden name={`role-${user.userId}`} value={user.role} onChange={(role) => void changeRole(user, role)} options={ROLE_OPTIONS} />
                ) : (
                  ROLE_LABEL[user.role]
                ),
            },
            { header: 'Duas etapas', cell: (user) => (user.invitationPending ? '—' : user.twoFactorEnabled ? 'Ativa' : 'Desativada') },
            { header: 'Desde', cell: (user) => formatDateTime(user.createdAt) },
            canManage && {
              header: 'Ações',
              kind: 'actions',
              cell: (user) =>
                editable(user) ? (
                  <div className="actions">
                    {user.invitationExpired ? <ActionButton className="secondary" label="Convidar de novo" onClick={() => reinvite(user)} /> : null}
                    <ConfirmButton label={user.invitationPending ? 'Cancelar convite' : 'Remover'} danger confirm={`Remover ${user.name} da conta?`} onConfirm={() => remove(user)} />
                  </div>
                ) : null,
            },
          ]}
        />
      )}
    </>
  );
}
