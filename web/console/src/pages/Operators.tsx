import { useState } from 'react';
import type { ApiProblem } from '../../../shared/api.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { ActionButton, ActionForm, ConfirmButton, Field, FormProblem, QueryState, SecretOnce } from '../../../shared/ui.tsx';
import { DataTable } from '../../../shared/table.tsx';
import { $api, ROLE_LABEL, type OperatorSession, type Schemas } from '../api.ts';
import { outcome, useInvalidate } from '../queries.ts';

type Role = Schemas['OperatorRole'];
const ROLES = Object.keys(ROLE_LABEL) as Role[];

function RoleChoice({ legend, roles, disabled, onChange }: { legend: string; roles: Role[]; disabled?: boolean; onChange: (roles: Role[]) => void }) {
  return (
    <fieldset className="field" disabled={disabled}>
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
  const { data, isPending, error } = $api.useQuery('get', '/admin/v1/operators');
  const create = $api.useMutation('post', '/admin/v1/operators');
  const change = $api.useMutation('patch', '/admin/v1/operators/{operatorId}');
  const reset = $api.useMutation('post', '/admin/v1/operators/{operatorId}/reset-credentials');
  const invalidate = useInvalidate();
  const [form, setForm] = useState<{ email: string; name: string; roles: Role[] }>({ email: '', name: '', roles: ['support'] });
  const [password, setPassword] = useState<{ title: string; value: string }>();
  const [problem, setProblem] = useState<ApiProblem>();
  const [listProblem, setListProblem] = useState<ApiProblem>();

  const update = async (operator: Schemas['Operator'], body: Schemas['UpdateOperatorRequest']) => {
    const result = await outcome(() => change.mutateAsync({ params: { path: { operatorId: operator.operatorId } }, body }));
    setListProblem(result.problem);
    await invalidate('/admin/v1/operators', '/admin/v1/audit-log');
  };

  return (
    <>
      <h1>Operadores</h1>
      {password ? <SecretOnce title={password.title} secret={password.value} onDone={() => setPassword(undefined)} /> : null}
      <FormProblem problem={listProblem} />
      <QueryState isPending={isPending} error={error}>
        <DataTable
          caption="Operadores"
          rows={data?.operators ?? []}
          rowKey={(operator) => operator.operatorId}
          columns={[
            {
              header: 'Nome',
              kind: 'title',
              cell: (operator) => (
                <>
                  {operator.name}
                  <div className="muted break-anywhere">
                    {operator.email} · {operator.operatorId} · desde {formatDateTime(operator.createdAt)}
                  </div>
                </>
              ),
            },
            {
              header: 'Papéis',
              cell: (operator) => (
                <RoleChoice legend={`Papéis de ${operator.name}`} roles={operator.roles} disabled={change.isPending} onChange={(roles) => void update(operator, { roles })} />
              ),
            },
            { header: 'Duas etapas', cell: (operator) => (operator.twoFactorEnabled ? 'Configurada' : 'Pendente') },
            { header: 'Situação', cell: (operator) => (operator.active ? 'Ativo' : 'Desativado') },
            {
              header: 'Ações',
              kind: 'actions',
              cell: (operator) =>
                operator.operatorId === session.operator.operatorId ? (
                  <span className="muted">Você</span>
                ) : (
                  <div className="actions">
                    <ActionButton label={operator.active ? 'Desativar' : 'Reativar'} className="secondary" onClick={() => update(operator, { active: !operator.active })} />
                    <ConfirmButton
                      label="Redefinir acesso"
                      confirm={`Gerar nova senha temporária para ${operator.name}? O aplicativo autenticador precisa ser configurado de novo.`}
                      onConfirm={async () => {
                        const result = await outcome(() => reset.mutateAsync({ params: { path: { operatorId: operator.operatorId } } }));
                        setListProblem(result.problem);
                        if (result.data) setPassword({ title: `Senha temporária de ${result.data.operator.name}`, value: result.data.temporaryPassword });
                        await invalidate('/admin/v1/operators', '/admin/v1/audit-log');
                      }}
                    />
                  </div>
                ),
            },
          ]}
        />
      </QueryState>
      <section aria-label="Novo operador">
        <h2>Novo operador</h2>
        <ActionForm
          label="Criar operador"
          fields={['email', 'name', 'roles']}
          problem={problem}
          onProblem={setProblem}
          action={async () => {
            const result = await outcome(() => create.mutateAsync({ body: form }));
            if (result.problem) return result.problem;
            setPassword({ title: `Senha temporária de ${result.data.operator.name}`, value: result.data.temporaryPassword });
            setForm({ email: '', name: '', roles: ['support'] });
            await invalidate('/admin/v1/operators', '/admin/v1/audit-log');
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
