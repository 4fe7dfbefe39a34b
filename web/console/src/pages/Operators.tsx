import { useCallback, useEffect, useState } from 'react';
import { problemOf, type ApiProblem } from '../../../shared/api.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { ActionForm, ConfirmButton, Field, FormProblem, Loading, SecretOnce } from '../../../shared/ui.tsx';
import { api, ROLE_LABEL, type OperatorSession, type Schemas } from '../api.ts';

type Role = Schemas['OperatorRole'];
const ROLES = Object.keys(ROLE_LABEL) as Role[];

function RoleChoice({ legend, roles, onChange }: { legend: string; roles: Role[]; onChange: (roles: Role[]) => void }) {
  return (
    <fieldset className="field">
      <legend>{legend}</legend>
      {ROLES.map((role) => (
        <label key={role}>
          <input
            type="checkbox"
            name="roles"
            value={role}
            checked={roles.includes(role)}
            onChange={(event) => onChange(event.target.checked ? [...roles, role] : roles.filter((kept) => kept !== role))}
          />{' '}
          {ROLE_LABEL[role]}
        </label>
      ))}
    </fieldset>
  );
}

/** Operators (admins only): create with roles (a temporary password shown once), change roles, deactivate, reset credentials. */
export function OperatorsPage({ session }: { session: OperatorSession }) {
  const [operators, setOperators] = useState<Schemas['Operator'][]>();
  const [form, setForm] = useState<{ email: string; name: string; roles: Role[] }>({ email: '', name: '', roles: ['support'] });
  const [password, setPassword] = useState<{ title: string; value: string }>();
  const [problem, setProblem] = useState<ApiProblem>();
  const [listProblem, setListProblem] = useState<ApiProblem>();

  const load = useCallback(async () => {
    const { data, error } = await api.GET('/admin/v1/operators');
    if (error) setListProblem(problemOf(error));
    else setOperators(data.operators);
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const update = async (operator: Schemas['Operator'], body: Schemas['UpdateOperatorRequest']) => {
    const { error } = await api.PATCH('/admin/v1/operators/{operatorId}', { params: { path: { operatorId: operator.operatorId } }, body });
    setListProblem(error ? problemOf(error) : undefined);
    await load();
  };

  return (
    <>
      <h1>Operadores</h1>
      {password ? <SecretOnce title={password.title} secret={password.value} onDone={() => setPassword(undefined)} /> : null}
      <FormProblem problem={listProblem} />
      {!operators ? (
        <Loading />
      ) : (
        <table>
          <caption className="sr-only">Operadores</caption>
          <thead>
            <tr>
              <th scope="col">Nome</th>
              <th scope="col">Papéis</th>
              <th scope="col">Duas etapas</th>
              <th scope="col">Situação</th>
              <th scope="col">Ações</th>
            </tr>
          </thead>
          <tbody>
            {operators.map((operator) => (
              <tr key={operator.operatorId}>
                <td>
                  {operator.name}
                  <div className="muted">
                    {operator.email} · {operator.operatorId} · desde {formatDateTime(operator.createdAt)}
                  </div>
                </td>
                <td>
                  <RoleChoice legend={`Papéis de ${operator.name}`} roles={operator.roles} onChange={(roles) => void update(operator, { roles })} />
                </td>
                <td>{operator.twoFactorEnabled ? 'Configurada' : 'Pendente'}</td>
                <td>{operator.active ? 'Ativo' : 'Desativado'}</td>
                <td>
                  {operator.operatorId === session.operator.operatorId ? (
                    <span className="muted">Você</span>
                  ) : (
                    <div className="actions">
                      <button type="button" className="secondary" onClick={() => void update(operator, { active: !operator.active })}>
                        {operator.active ? 'Desativar' : 'Reativar'}
                      </button>
                      <ConfirmButton
                        label="Redefinir acesso"
                        confirm={`Gerar nova senha temporária para ${operator.name}? O aplicativo autenticador precisa ser configurado de novo.`}
                        onConfirm={async () => {
                          const { data, error } = await api.POST('/admin/v1/operators/{operatorId}/reset-credentials', { params: { path: { operatorId: operator.operatorId } } });
                          if (error) setListProblem(problemOf(error));
                          else setPassword({ title: `Senha temporária de ${data.operator.name}`, value: data.temporaryPassword });
                          await load();
                        }}
                      />
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <section aria-label="Novo operador">
        <h2>Novo operador</h2>
        <ActionForm
          label="Criar operador"
          fields={['email', 'name', 'roles']}
          problem={problem}
          onProblem={setProblem}
          action={async () => {
            const { data, error } = await api.POST('/admin/v1/operators', { body: form });
            if (error) return problemOf(error);
            setPassword({ title: `Senha temporária de ${data.operator.name}`, value: data.temporaryPassword });
            setForm({ email: '', name: '', roles: ['support'] });
            await load();
            return undefined;
          }}
        >
          <div className="grid-2">
            <Field label="Nome" name="name" value={form.name} onChange={(event) => setForm({ ...form, name: event.target.value })} problem={problem} />
            <Field label="E-mail" name="email" type="email" value={form.email} onChange={(event) => setForm({ ...form, email: event.target.value })} problem={problem} />
          </div>
          <RoleChoice legend="Papéis" roles={form.roles} onChange={(roles) => setForm({ ...form, roles })} />
        </ActionForm>
      </section>
    </>
  );
}
