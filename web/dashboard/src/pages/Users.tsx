import { useCallback, useEffect, useState } from 'react';
import { problemOf, type ApiProblem } from '../../../shared/api.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { ActionForm, ConfirmButton, Field, FormProblem, Loading, Notice, SelectField } from '../../../shared/ui.tsx';
import { api, type Schemas, type Session } from '../api.ts';
import { may } from '../roles.ts';
import { TeamTwoFactorSection } from './UsersTeamTwoFactor.tsx';

type Role = Schemas['UserRole'];
export const ROLE_LABEL: Record<Role, string> = { owner: 'Proprietário', admin: 'Administrador', developer: 'Desenvolvedor', viewer: 'Leitura' };

/** Users of the account: invite by e-mail with a role, change a role, remove someone. */
export function UsersPage({ session }: { session: Session }) {
  const [users, setUsers] = useState<Schemas['DashboardUser'][]>();
  const [form, setForm] = useState({ email: '', name: '', role: 'developer' });
  const [problem, setProblem] = useState<ApiProblem>();
  const [listProblem, setListProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();

  const load = useCallback(async () => {
    const { data, error } = await api.GET('/dashboard/api/v1/users');
    if (error) setListProblem(problemOf(error));
    else setUsers(data.users);
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

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
              setNotice(`Convite enviado para ${form.email}.`);
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
        <Loading />
      ) : (
        <table>
          <caption className="sr-only">Usuários da conta</caption>
          <thead>
            <tr>
              <th scope="col">Nome</th>
              <th scope="col">E-mail</th>
              <th scope="col">Papel</th>
              <th scope="col">Duas etapas</th>
              <th scope="col">Desde</th>
              {canManage ? <th scope="col">Ações</th> : null}
            </tr>
          </thead>
          <tbody>
            {users.map((user) => {
              const editable = canManage && user.role !== 'owner' && user.userId !== session.user.userId;
              return (
                <tr key={user.userId}>
                  <td>
                    {user.name}
                    {user.invitationPending ? <div className="muted">Convite pendente</div> : null}
                  </td>
                  <td>{user.email}</td>
                  <td>
                    {editable ? (
                      <SelectField label={`Papel de ${user.name}`} name={`role-${user.userId}`} value={user.role} onChange={(role) => void changeRole(user, role)} options={ROLE_OPTIONS} />
                    ) : (
                      ROLE_LABEL[user.role]
                    )}
                  </td>
                  <td>{user.twoFactorEnabled ? 'Ativa' : 'Desativada'}</td>
                  <td>{formatDateTime(user.createdAt)}</td>
                  {canManage ? (
                    <td>{editable ? <ConfirmButton label="Remover" danger confirm={`Remover ${user.name} da conta?`} onConfirm={() => remove(user)} /> : null}</td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </>
  );
}
