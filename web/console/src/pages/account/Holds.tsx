import { useState } from 'react';
import type { ApiProblem } from '../../../../shared/api.ts';
import { formatBrl, formatDateTime } from '../../../../shared/format.ts';
import { parseBrl } from '../../../../shared/money.ts';
import { ActionForm, ConfirmButton, Field, FormProblem, Money, MoneyField, QueryState, SelectField, Status } from '../../../../shared/ui.tsx';
import { DataTable } from '../../../../shared/table.tsx';
import { $api, may, type Schemas } from '../../api.ts';
import { outcome, useInvalidate } from '../../queries.ts';
import { Section, type SectionProps } from './Section.tsx';

const HOLD_REASONS = [
  { value: 'med', label: 'MED (devolução especial)' },
  { value: 'dispute', label: 'Disputa' },
  { value: 'protest', label: 'Contestação' },
  { value: 'administrative', label: 'Administrativo' },
];

const EMPTY = { amount: '', reason: 'administrative', transactionId: '', note: '' };

/** Holds on the account's balance: the list (release one), and a new hold. */
export function HoldsSection({ accountId, session, onChanged }: SectionProps) {
  const holds = $api.useQuery('get', '/admin/v1/accounts/{accountId}/holds', { params: { path: { accountId } } });
  const place = $api.useMutation('post', '/admin/v1/accounts/{accountId}/holds');
  const release = $api.useMutation('post', '/admin/v1/accounts/{accountId}/holds/{holdId}/release');
  const invalidate = useInvalidate();
  const [form, setForm] = useState(EMPTY);
  const [problem, setProblem] = useState<ApiProblem>();
  const [releaseProblem, setReleaseProblem] = useState<ApiProblem>();
  const changed = async (message: string) => {
    await invalidate('/admin/v1/accounts/{accountId}/holds', '/admin/v1/accounts/{accountId}/balance', '/admin/v1/audit-log');
    onChanged(message);
  };
  return (
    <Section title="Bloqueios de saldo">
      <FormProblem problem={releaseProblem} />
      <QueryState isPending={holds.isPending} error={holds.error}>
        {holds.data?.holds.length === 0 ? <p>Nenhum bloqueio.</p> : null}
        {holds.data && holds.data.holds.length > 0 ? (
          <DataTable
            caption="Bloqueios"
            rows={holds.data.holds}
            rowKey={(hold: Schemas['Hold']) => hold.holdId}
            columns={[
              {
                header: 'Bloqueio',
                kind: 'title',
                cell: (hold: Schemas['Hold']) => (
                  <>
                    <span className="break-anywhere">{hold.holdId}</span>
                    {hold.note ? <div className="muted">{hold.note}</div> : null}
                    {hold.transactionId ? <div className="muted break-anywhere">{hold.transactionId}</div> : null}
                  </>
                ),
              },
              { header: 'Valor', kind: 'money', cell: (hold: Schemas['Hold']) => <Money cents={hold.amountCents} /> },
              { header: 'Motivo', cell: (hold: Schemas['Hold']) => HOLD_REASONS.find((reason) => reason.value === hold.reason)?.label },
              { header: 'Situação', cell: (hold: Schemas['Hold']) => (hold.status === 'active' ? <Status value="pending" label="Ativo" /> : <Status value="approved" label="Liberado" />) },
              { header: 'Criado em', cell: (hold: Schemas['Hold']) => formatDateTime(hold.createdAt) },
              may(session, 'releaseHold') && {
                header: 'Ações',
                kind: 'actions',
                cell: (hold: Schemas['Hold']) =>
                  hold.status === 'active' ? (
                    <ConfirmButton
                      label="Liberar"
                      confirm={`Liberar ${formatBrl(hold.amountCents)}?`}
                      onConfirm={async () => {
                        const result = await outcome(() => release.mutateAsync({ params: { path: { accountId, holdId: hold.holdId } } }));
                        setReleaseProblem(result.problem);
                        if (!result.problem) await changed(`Bloqueio ${hold.holdId} liberado.`);
                      }}
                    />
                  ) : null,
              },
            ]}
          />
        ) : null}
      </QueryState>
      {may(session, 'placeHold') ? (
        <>
          <h3>Novo bloqueio</h3>
          <ActionForm
            label="Bloquear valor"
            fields={['amountCents', 'reason', 'transactionId', 'note']}
            problem={problem}
            onProblem={setProblem}
            action={async () => {
              const amountCents = parseBrl(form.amount);
              if (amountCents === undefined) return { error: 'Informe o valor em reais, por exemplo 150,00.', field: 'amountCents' };
              const body = {
                amountCents,
                reason: form.reason as Schemas['HoldReason'],
                ...(form.transactionId.trim() ? { transactionId: form.transactionId.trim() } : {}),
                ...(form.note.trim() ? { note: form.note.trim() } : {}),
              };
              const result = await outcome(() => place.mutateAsync({ params: { path: { accountId } }, body }));
              if (result.problem) return result.problem;
              setForm(EMPTY);
              await changed(`Bloqueio ${result.data.holdId} de ${formatBrl(result.data.amountCents)} criado.`);
              return undefined;
            }}
          >
            <div className="grid-2">
              <MoneyField label="Valor (R$)" name="amountCents" value={form.amount} onChange={(amount) => setForm({ ...form, amount })} problem={problem} />
              <SelectField label="Motivo" name="reason" value={form.reason} onChange={(reason) => setForm({ ...form, reason })} options={HOLD_REASONS} problem={problem} />
              <Field label="Cobrança (opcional)" name="transactionId" value={form.transactionId} onChange={(event) => setForm({ ...form, transactionId: event.target.value })} problem={problem} placeholder="tx_…" />
              <Field label="Observação" name="note" value={form.note} onChange={(event) => setForm({ ...form, note: event.target.value })} problem={problem} />
            </div>
          </ActionForm>
        </>
      ) : null}
    </Section>
  );
}
