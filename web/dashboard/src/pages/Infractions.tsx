import { useId, useState } from 'react';
import type { ApiProblem } from '../../../shared/api.ts';
import { formatBrl, formatDateTime } from '../../../shared/format.ts';
import { ActionForm, Field, Money, Notice, QueryState, SelectField, Status } from '../../../shared/ui.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { attempt, useInvalidate } from '../data.ts';
import { may } from '../roles.ts';

type Infraction = Schemas['DashboardInfraction'];
type Analysis = Schemas['DashboardDefenceRequest']['analysis'];

const STATUS: Record<Infraction['status'], string> = {
  open: 'Aberta: aguardando a sua defesa',
  defending: 'Em análise pelo provedor',
  accepted: 'Aceita: valor devolvido ao pagador',
  rejected: 'Recusada: valor liberado',
  cancelled: 'Cancelada: valor liberado',
};

const ANALYSES: { value: Analysis; label: string }[] = [
  { value: 'rejeitado', label: 'Contestar: a venda foi legítima' },
  { value: 'aceito', label: 'Concordar: devolver o valor ao pagador' },
];

/** The defence's justification: a text area with the server's message beside it. */
function JustificationField(props: { value: string; onChange: (value: string) => void; problem: ApiProblem | undefined }) {
  const id = useId();
  const error = props.problem?.field === 'text' ? props.problem.error : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>Justificativa</label>
      <textarea
        id={id}
        name="text"
        rows={4}
        maxLength={1000}
        value={props.value}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        onChange={(event) => props.onChange(event.target.value)}
      />
      <p id={`${id}-hint`} className="hint">
        O que o provedor vai ler: comprovante de entrega, confirmação do cliente. De 3 a 1.000 caracteres.
      </p>
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The defence of one open infraction: contest it or agree, with a justification and the authenticator's
 * code; agreeing asks a confirmation first (the money goes back to the payer, and a defence cannot be taken
 * back). Owner or admin, two-factor on.
 */
function DefenceForm({ infraction, onDone }: { infraction: Infraction; onDone: (message: string) => void }) {
  const [form, setForm] = useState<{ analysis: Analysis; text: string; totpCode: string }>({ analysis: 'rejeitado', text: '', totpCode: '' });
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<ApiProblem>();
  const defendMutation = $api.useMutation('post', '/dashboard/api/v1/infractions/{infractionId}/defence');
  return (
    <ActionForm
      label={form.analysis === 'aceito' && confirming ? `Confirmar: devolver ${formatBrl(infraction.amountCents)}` : 'Enviar defesa ao provedor'}
      fields={['analysis', 'text', 'totpCode']}
      problem={problem}
      onProblem={setProblem}
      action={async () => {
        if (form.analysis === 'aceito' && !confirming) {
          setConfirming(true);
          return undefined;
        }
        const outcome = await attempt(() =>
          defendMutation.mutateAsync({ params: { path: { infractionId: infraction.infractionId } }, body: { analysis: form.analysis, text: form.text, totpCode: form.totpCode } }),
        );
        setConfirming(false);
        if (!outcome.ok) return outcome.problem;
        onDone(
          outcome.data.status === 'accepted'
            ? `Infração ${infraction.infractionId}: você concordou; o valor volta ao pagador.`
            : `Defesa da infração ${infraction.infractionId} enviada ao provedor.`,
        );
        return undefined;
      }}
    >
      <SelectField
        label="Sua posição"
        name="analysis"
        value={form.analysis}
        options={ANALYSES}
        problem={problem}
        onChange={(analysis) => {
          setConfirming(false);
          setForm({ ...form, analysis: analysis as Analysis });
        }}
      />
      <JustificationField value={form.text} problem={problem} onChange={(text) => setForm({ ...form, text })} />
      <Field
        label="Código do aplicativo autenticador"
        name="totpCode"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={form.totpCode}
        problem={problem}
        onChange={(event) => setForm({ ...form, totpCode: event.target.value })}
      />
      {form.analysis === 'aceito' && confirming ? (
        <p className="warning" role="alert">
          Confirme: {formatBrl(infraction.amountCents)} voltam ao pagador e a defesa não pode ser alterada depois.
        </p>
      ) : null}
    </ActionForm>
  );
}

/**
 * MED infractions: what the payers' banks contest, with the deadline for the defence, the money held while
 * the case is open, and how the provider decided.
 */
export function InfractionsPage({ session }: { session: Session }) {
  const infractionsQuery = $api.useQuery('get', '/dashboard/api/v1/infractions');
  const invalidate = useInvalidate();
  const [notice, setNotice] = useState<string>();
  const infractions: Infraction[] = infractionsQuery.data?.infractions ?? [];
  const canDefend = may(session, 'defendDashboardInfraction');
  return (
    <>
      <h1>Infrações MED</h1>
      <p className="muted">
        Quando o banco do pagador contesta um Pix (Mecanismo Especial de Devolução), o valor da cobrança fica retido até o provedor decidir. Envie a sua
        defesa antes do prazo.
      </p>
      {notice ? <Notice>{notice}</Notice> : null}
      <QueryState isPending={infractionsQuery.isPending} error={infractionsQuery.error} />
      {infractionsQuery.isSuccess && infractions.length === 0 ? <p>Nenhuma infração MED nas suas cobranças.</p> : null}
      {infractions.map((infraction) => (
        <section className="card" key={infraction.infractionId} aria-label={`Infração ${infraction.infractionId}`}>
          <h2>
            Infração {infraction.infractionId} · <Money cents={infraction.amountCents} />
          </h2>
          <dl>
            <dt>Situação</dt>
            <dd>
              <Status value={infraction.status} label={STATUS[infraction.status]} />
            </dd>
            <dt>Cobrança</dt>
            <dd>
              <a className="wrap-anywhere" href={`#/transacoes/${infraction.transactionId}`}>{infraction.transactionId}</a>
            </dd>
            <dt>Motivo</dt>
            <dd>{infraction.reason ?? '—'}</dd>
            <dt>Aberta em</dt>
            <dd>{formatDateTime(infraction.openedAt)}</dd>
            <dt>Prazo da defesa</dt>
            <dd>{infraction.deadlineAt === undefined ? '—' : formatDateTime(infraction.deadlineAt)}</dd>
            {infraction.defence ? (
              <>
                <dt>Sua defesa</dt>
                <dd>
                  {infraction.defence.analysis === 'aceito' ? 'Concordou com a devolução' : 'Contestou'} em {formatDateTime(infraction.defence.sentAt)}: {infraction.defence.text}
                </dd>
              </>
            ) : null}
            {infraction.closedAt === undefined ? null : (
              <>
                <dt>Decidida em</dt>
                <dd>{formatDateTime(infraction.closedAt)}</dd>
              </>
            )}
          </dl>
          {infraction.canDefend && canDefend ? (
            session.user.twoFactorEnabled ? (
              <DefenceForm
                infraction={infraction}
                onDone={(message) => {
                  setNotice(message);
                  void invalidate('/dashboard/api/v1/infractions', '/dashboard/api/v1/overview');
                }}
              />
            ) : (
              <p className="warning">
                A defesa pelo painel exige a verificação em duas etapas. <a href="#/seguranca">Ative-a em Segurança</a>.
              </p>
            )
          ) : null}
        </section>
      ))}
    </>
  );
}
