import { useEffect, useState } from 'react';
import { problemOf, type ApiProblem } from '../../../shared/api.ts';
import { formatBrl, parseBrl, statusLabel } from '../../../shared/format.ts';
import { ActionForm, Field, Notice, SelectField, Status } from '../../../shared/ui.tsx';
import { api, type Schemas, type Session } from '../api.ts';
import { may } from '../roles.ts';
import { PIX_KEY_TYPES } from './Recipients.tsx';

type Request = Schemas['DashboardWithdrawalRequest'];
type Outcome = { status: number; transactionId: string; text: string; state?: string };

/** A reference of this form's attempt: sending again (a double click, a lost answer) cannot pay twice. */
const newReference = () => `painel-${crypto.randomUUID()}`;

/**
 * A withdrawal from the dashboard: POST /v1/withdraw's fields plus the current code of the authenticator app.
 * Each filled form carries its own externalRef, so a retry returns the original withdrawal (200) instead of a
 * second one.
 */
export function WithdrawPage({ session }: { session: Session }) {
  const [form, setForm] = useState({ amount: '', pixKeyType: 'cpf', pixKey: '', description: '', recipientId: '', totpCode: '' });
  const [reference, setReference] = useState(newReference);
  const [recipients, setRecipients] = useState<Schemas['DashboardRecipient'][]>([]);
  const [problem, setProblem] = useState<ApiProblem>();
  const [outcome, setOutcome] = useState<Outcome>();

  useEffect(() => {
    void (async () => {
      const { data } = await api.GET('/dashboard/api/v1/recipients');
      if (data) setRecipients(data.recipients.filter((recipient) => recipient.status === 'active'));
    })();
  }, []);

  if (!may(session, 'createDashboardWithdrawal')) {
    return (
      <>
        <h1>Saques</h1>
        <p className="warning">Saques pelo painel são feitos pelo proprietário ou por administradores da conta.</p>
      </>
    );
  }
  if (!session.user.twoFactorEnabled) {
    return (
      <>
        <h1>Saques</h1>
        <p className="warning">
          Saques pelo painel exigem a verificação em duas etapas. <a href="#/seguranca">Ative-a em Segurança</a>.
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Saques</h1>
      <p className="muted">
        O mesmo serviço de POST /v1/withdraw (regras, limites, mensagens e eventos), com o código do aplicativo autenticador. Sem destinatário, o saque vai
        para uma chave do titular da conta.
      </p>
      {outcome ? (
        <p role="status" className={outcome.status === 201 || outcome.status === 200 ? 'notice' : 'warning'}>
          {outcome.text} <a href={`#/transacoes/${outcome.transactionId}`}>{outcome.transactionId}</a>
          {outcome.state ? (
            <>
              {' '}
              <Status value={outcome.state} label={statusLabel(outcome.state)} />
            </>
          ) : null}
        </p>
      ) : null}
      <ActionForm
        label="Sacar"
        fields={['amountCents', 'pixKey', 'pixKeyType', 'description', 'recipientId', 'totpCode']}
        problem={problem}
        onProblem={setProblem}
        action={async () => {
          setOutcome(undefined);
          const amountCents = parseBrl(form.amount);
          if (amountCents === undefined) return { error: 'Informe o valor em reais, por exemplo 150,00.', field: 'amountCents' };
          const body: Request = {
            amountCents,
            pixKey: form.pixKey,
            pixKeyType: form.pixKeyType as Request['pixKeyType'],
            externalRef: reference,
            totpCode: form.totpCode,
            ...(form.description.trim() ? { description: form.description.trim() } : {}),
            ...(form.recipientId ? { recipientId: form.recipientId } : {}),
          };
          const { data, error, response } = await api.POST('/dashboard/api/v1/withdrawals', { body });
          if (error) return problemOf(error);
          setReference(newReference());
          if ('error' in data) {
            // 202: debited, the final state is not known yet (within 24 h): never send it again.
            setOutcome({ status: response.status, transactionId: data.transactionId, text: data.error, state: data.status });
            return undefined;
          }
          const text =
            response.status === 200
              ? 'Este saque já tinha sido enviado; nada foi debitado de novo.'
              : `Saque de ${formatBrl(data.amountCents)} criado (tarifa ${formatBrl(data.feeCents)}, total debitado ${formatBrl(data.totalDeducted)}).${
                  data.refusedReason ? ` ${data.refusedReason}` : ''
                }`;
          setOutcome({ status: response.status, transactionId: data.transactionId, text, state: data.status });
          setForm({ ...form, amount: '', description: '', totpCode: '' });
          return undefined;
        }}
      >
        <Field label="Valor (R$)" name="amountCents" inputMode="decimal" value={form.amount} onChange={(event) => setForm({ ...form, amount: event.target.value })} problem={problem} placeholder="150,00" />
        <SelectField
          label="Destinatário"
          name="recipientId"
          value={form.recipientId}
          onChange={(recipientId) => {
            setForm({ ...form, recipientId });
          }}
          problem={problem}
          options={[{ value: '', label: 'O próprio titular da conta' }, ...recipients.map((recipient) => ({ value: recipient.recipientId, label: `${recipient.legalName} (${recipient.documentMasked})` }))]}
        />
        <div className="grid-2">
          <SelectField label="Tipo de chave Pix" name="pixKeyType" value={form.pixKeyType} onChange={(pixKeyType) => setForm({ ...form, pixKeyType })} problem={problem} options={PIX_KEY_TYPES} />
          <Field label="Chave Pix" name="pixKey" value={form.pixKey} onChange={(event) => setForm({ ...form, pixKey: event.target.value })} problem={problem} />
        </div>
        <Field label="Descrição (opcional)" name="description" value={form.description} onChange={(event) => setForm({ ...form, description: event.target.value })} problem={problem} />
        <Field
          label="Código do aplicativo autenticador"
          name="totpCode"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={form.totpCode}
          onChange={(event) => setForm({ ...form, totpCode: event.target.value })}
          problem={problem}
        />
      </ActionForm>
      <Notice>Referência desta tentativa: {reference}</Notice>
    </>
  );
}
