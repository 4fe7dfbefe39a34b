import { useState } from 'react';
import type { ApiProblem } from '../../../shared/api.ts';
import { formatBrl, formatDate, formatDateTime, maskDocument } from '../../../shared/format.ts';
import { DataTable, FactList } from '../../../shared/table.tsx';
import { ActionButton, ConfirmButton, CopyButton, FormProblem, Money, Notice, Status } from '../../../shared/ui.tsx';
import { $api, type Session } from '../api.ts';
import { attemptAction, useInvalidate } from '../data.ts';
import { DetailFrame, PageNav, useCursorPages } from '../lists.tsx';
import { NamedActionButton } from '../NamedActionButton.tsx';
import {
  attemptStatusLabel,
  consentStatusLabel,
  cycleStatusLabel,
  cycleStatusTone,
  endedByText,
  journeyLabel,
  periodicityLabel,
  recurrenceStatusLabel,
  recurrenceStatusTone,
  RETRY_LABEL,
  type Recurrence,
  type RecurrenceCycle,
} from '../recurrenceTerms.ts';
import { may } from '../roles.ts';
import { CycleAmount } from './Recurrences.tsx';

/** The server's answer to an id that is not a recurrence of the account. */
const NOT_FOUND = 'Recorrência não encontrada.';
/** The payer answers in their bank's app while the page is open: read again every 10 s. */
const REFRESH_MS = 10_000;

/** Every read of a recurrence the page shows, read again after an action. */
const READS = ['/dashboard/api/v1/recurrences', '/dashboard/api/v1/recurrences/{recurrenceId}', '/dashboard/api/v1/recurrences/{recurrenceId}/cycles', '/dashboard/api/v1/overview', '/dashboard/api/v1/transactions'] as const;

/**
 * One recurrence (Pix Automático): its consent (the QR code and copy-and-paste code the payer reads, while
 * a QR journey waits), terms, history and cycles with their attempts; "Cancelar recorrência" (asked first);
 * in the sandbox, the payer's and their bank's actions. `justCreated` is the form's outcome.
 */
export function RecurrencePage({ recurrenceId, session, justCreated }: { recurrenceId: string; session: Session; justCreated?: 'created' | 'repeated' | undefined }) {
  const valid = /^rec_[0-9a-f]{24}$/.test(recurrenceId);
  const query = $api.useQuery('get', '/dashboard/api/v1/recurrences/{recurrenceId}', { params: { path: { recurrenceId } } }, { enabled: valid, refetchInterval: REFRESH_MS });
  return (
    <DetailFrame
      back={{ href: '#/recorrencias', label: 'Recorrências' }}
      title="Recorrência"
      notFound={{ title: 'Recorrência não encontrada', message: NOT_FOUND, none: 'Nenhuma recorrência' }}
      id={recurrenceId}
      valid={valid}
      query={query}
    >
      {(recurrence) => <RecurrenceDetail recurrence={recurrence} session={session} justCreated={justCreated} />}
    </DetailFrame>
  );
}

function endedText(recurrence: Recurrence): string | undefined {
  const ended = recurrence.ended;
  if (!ended) return undefined;
  const what = { rejected: 'Rejeitada', expired: 'Expirada', cancelled: 'Cancelada' }[ended.reason];
  const by = endedByText(ended.by);
  return `${what}${by ? ` ${by}` : ''}${ended.code ? ` (código ${ended.code})` : ''}${ended.description ? `: ${ended.description}` : ''}.`;
}

function RecurrenceDetail({ recurrence, session, justCreated }: { recurrence: Recurrence; session: Session; justCreated: 'created' | 'repeated' | undefined }) {
  const invalidate = useInvalidate();
  const cancel = $api.useMutation('post', '/dashboard/api/v1/recurrences/{recurrenceId}/cancel');
  const [notice, setNotice] = useState<string>();
  const [problem, setProblem] = useState<ApiProblem>();
  const id = recurrence.id;
  const cancellable = recurrence.status === 'created' || recurrence.status === 'approved';

  const cancelRecurrence = async () => {
    setNotice(undefined);
    const outcome = await attemptAction(() => cancel.mutateAsync({ params: { path: { recurrenceId: id } } }));
    await invalidate(...READS);
    if (!outcome.ok) {
      setProblem(outcome.problem);
      return;
    }
    setProblem(undefined);
    setNotice('Recorrência cancelada: nenhuma cobrança nova será feita, e as ainda não debitadas foram canceladas.');
  };

  const ended = endedText(recurrence);
  const facts = [
    { name: 'Situação', value: <Status value={recurrenceStatusTone(recurrence.status)} label={recurrenceStatusLabel(recurrence.status)} /> },
    { name: 'Pagador', value: <span className="wrap-anywhere">{`${recurrence.payer.name} (${maskDocument(recurrence.payer.document.number)})`}</span> },
    { name: 'Contrato', value: <span className="wrap-anywhere">{recurrence.contract}</span> },
    ...(recurrence.object ? [{ name: 'Objeto', value: <span className="wrap-anywhere">{recurrence.object}</span> }] : []),
    { name: 'Valor', value: <CycleAmount recurrence={recurrence} /> },
    { name: 'Periodicidade', value: periodicityLabel(recurrence.periodicity) },
    { name: 'Início', value: formatDate(recurrence.startDate) },
    { name: 'Término', value: recurrence.endDate ? formatDate(recurrence.endDate) : 'Até ser cancelada' },
    { name: 'Próximo ciclo', value: recurrence.nextCycleDate ? formatDate(recurrence.nextCycleDate) : '—' },
    { name: 'Novas tentativas', value: RETRY_LABEL[recurrence.retryPolicy] },
    ...(ended ? [{ name: 'Encerramento', value: ended }] : []),
    ...(recurrence.externalRef ? [{ name: 'Referência', value: <span className="wrap-anywhere">{recurrence.externalRef}</span> }] : []),
    { name: 'Criada em', value: formatDateTime(recurrence.createdAt) },
    { name: 'Identificador', value: <code className="wrap-anywhere">{id}</code> },
  ];

  return (
    <>
      <h1 className="wrap-anywhere">Recorrência de {recurrence.payer.name}</h1>
      {justCreated === 'created' ? <Notice>Recorrência criada. Agora o pagador precisa autorizá-la no app do banco dele.</Notice> : null}
      {justCreated === 'repeated' ? <Notice>Esta recorrência já tinha sido criada com esta referência; é a mesma.</Notice> : null}
      {notice ? <Notice>{notice}</Notice> : null}
      <FormProblem problem={problem} />
      <ConsentSection recurrence={recurrence} />
      <FactList label="Dados da recorrência" facts={facts} />
      <div className="metrics">
        <section className="metric" aria-label="Ciclos pagos">
          <div className="label">Ciclos pagos</div>
          <div className="value" data-testid="recurrence-paid">
            {recurrence.cycles?.paid ?? 0}
          </div>
        </section>
        <section className="metric" aria-label="Ciclos em aberto">
          <div className="label">Em aberto</div>
          <div className="value">{recurrence.cycles?.open ?? 0}</div>
        </section>
        <section className="metric" aria-label="Ciclos não pagos">
          <div className="label">Não pagos</div>
          <div className="value">{recurrence.cycles?.failed ?? 0}</div>
          <p className="hint">Recusados, expirados ou cancelados</p>
        </section>
      </div>
      <h2>Ciclos</h2>
      <Cycles recurrence={recurrence} session={session} />
      <h2>Histórico</h2>
      <ol className="history" data-testid="recurrence-history">
        {recurrence.history.map((change) => (
          <li key={`${change.status}-${change.at}`}>
            <Status value={recurrenceStatusTone(change.status)} label={recurrenceStatusLabel(change.status)} /> <span className="nowrap">{formatDateTime(change.at)}</span>
          </li>
        ))}
      </ol>
      {session.sandbox && may(session, 'sandboxDashboardRecurrenceAction') ? <SandboxActions recurrence={recurrence} /> : null}
      {cancellable && may(session, 'cancelDashboardRecurrence') ? (
        <div className="actions">
          <ConfirmButton
            label="Cancelar recorrência"
            danger
            confirm={`Cancelar a recorrência de ${recurrence.payer.name} (${recurrence.contract})? Nenhuma cobrança nova será feita, e as ainda não debitadas são canceladas. Não é possível reativá-la.`}
            onConfirm={cancelRecurrence}
          />
        </div>
      ) : null}
    </>
  );
}

/** The consent: its journey and status; while a QR journey waits, the QR code and the copy-and-paste code. */
function ConsentSection({ recurrence }: { recurrence: Recurrence }) {
  const { consent } = recurrence;
  const payload = consent.pixPayload;
  return (
    <section className="card charge-code" aria-label="Autorização do pagador">
      <h2>Autorização do pagador</h2>
      <p>
        {journeyLabel(consent.journey)}: <Status value={consent.status === 'accepted' ? 'approved' : consent.status} label={consentStatusLabel(consent.status)} />
        {consent.expiresAt !== undefined && consent.status === 'pending' ? <span className="muted"> · responder até {formatDateTime(consent.expiresAt)}</span> : null}
      </p>
      {consent.firstPaymentTransactionId ? (
        <p>
          Primeiro pagamento: <a href={`#/transacoes/${consent.firstPaymentTransactionId}`}>ver a cobrança</a>
        </p>
      ) : null}
      {recurrence.activation ? <p className="muted">Autorizada em {formatDateTime(recurrence.activation.at)}.</p> : null}
      {payload ? (
        <div className="qr-row">
          <div className="qr">
            <img src={`/dashboard/api/v1/recurrences/${recurrence.id}/qrcode?size=440`} alt="QR code Pix Automático para o pagador autorizar" width={220} height={220} data-testid="recurrence-qr-image" />
          </div>
          <div>
            <p className="muted">O pagador lê o QR code no app do banco dele (ou cola o código) e autoriza a recorrência.</p>
            <pre className="payload" data-testid="recurrence-qr-payload">
              {payload}
            </pre>
            <div className="actions">
              <CopyButton className="secondary" text={payload} label="Copiar código" done="Código copiado" />
            </div>
          </div>
        </div>
      ) : consent.journey === 'request' && consent.status === 'pending' ? (
        <p className="muted">O pedido foi enviado ao banco do pagador: ele autoriza no app do banco.</p>
      ) : null}
    </section>
  );
}

function AttemptsText({ cycle }: { cycle: RecurrenceCycle }) {
  if (cycle.attempts.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="attempts">
      {cycle.attempts.map((attempt, index) => (
        <li key={`${attempt.date}-${index}`}>
          <span className="nowrap">{formatDate(attempt.date)}</span> {attempt.kind === 'retry' ? 'nova tentativa' : 'tentativa'} {attemptStatusLabel(attempt.status)}
          {attempt.refusalCode ? <span className="wrap-anywhere"> (código {attempt.refusalCode}{attempt.refusalReason ? `: ${attempt.refusalReason}` : ''})</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** The recurrence's cycles, newest first, in real pages; in the sandbox, the payer's bank's answer to an open one. */
function Cycles({ recurrence, session }: { recurrence: Recurrence; session: Session }) {
  const pages = useCursorPages();
  const cursor = pages.cursor;
  const query = $api.useQuery('get', '/dashboard/api/v1/recurrences/{recurrenceId}/cycles', {
    params: { path: { recurrenceId: recurrence.id }, query: { limit: 20, ...(cursor ? { cursor } : {}) } },
  });
  const cycles = query.data?.cycles ?? [];
  const sandbox = session.sandbox === true && may(session, 'sandboxDashboardRecurrenceCycleAction');
  if (query.data && cycles.length === 0 && cursor === undefined) {
    return <Notice>Nenhum ciclo enviado ainda. Cada cobrança é enviada ao banco do pagador de 10 a 2 dias antes do vencimento, depois que ele autoriza.</Notice>;
  }
  return (
    <>
      <DataTable
        caption="Ciclos da recorrência"
        testId="recurrence-cycles"
        rows={cycles}
        rowKey={(cycle) => cycle.transactionId}
        columns={[
          {
            header: 'Vencimento',
            kind: 'title',
            cell: (cycle) => (
              <a href={`#/transacoes/${cycle.transactionId}`} className="nowrap">
                {`${cycle.sequence}º · ${formatDate(cycle.dueDate)}`}
              </a>
            ),
          },
          { header: 'Valor', kind: 'money', cell: (cycle) => <Money cents={cycle.amountCents} /> },
          { header: 'Débito em', cell: (cycle) => <span className="nowrap">{formatDate(cycle.settlementDate)}</span> },
          { header: 'Situação', cell: (cycle) => <Status value={cycleStatusTone(cycle.status)} label={cycleStatusLabel(cycle.status)} /> },
          { header: 'Tentativas', cell: (cycle) => <AttemptsText cycle={cycle} /> },
          ...(sandbox ? [{ header: 'Teste (sandbox)', cell: (cycle: RecurrenceCycle) => <CycleSandbox cycle={cycle} /> }] : []),
        ]}
      />
      {query.data?.nextCursor !== undefined || pages.cursors.length > 1 ? <PageNav pages={pages} nextCursor={query.data?.nextCursor} /> : null}
    </>
  );
}

/** The payer's bank on one open cycle (sandbox): debit it, refuse it (AM02: retried; AC05: final), or the payer cancels it. */
function CycleSandbox({ cycle }: { cycle: RecurrenceCycle }) {
  const act = $api.useMutation('post', '/dashboard/api/v1/sandbox/recurrence-cycles/{transactionId}/{action}');
  const invalidate = useInvalidate();
  const [problem, setProblem] = useState<ApiProblem>();
  if (cycle.status !== 'scheduled' && cycle.status !== 'retrying') return <span className="muted">—</span>;
  const run = (action: 'pay' | 'refuse' | 'payer-cancel', code?: string) => async () => {
    const outcome = await attemptAction(() => act.mutateAsync({ params: { path: { transactionId: cycle.transactionId, action } }, body: code ? { refusalCode: code } : {} }));
    await invalidate(...READS);
    setProblem(outcome.ok ? undefined : outcome.problem);
  };
  const which = `ciclo ${cycle.sequence}`;
  return (
    <div className="actions">
      <NamedActionButton className="secondary" label="Debitar" name={`Debitar ${which}`} onClick={run('pay')} />
      <NamedActionButton className="secondary" label="Recusar (AM02)" name={`Recusar ${which} por saldo insuficiente (AM02)`} onClick={run('refuse', 'AM02')} />
      <NamedActionButton className="secondary" label="Recusar de vez (AC05)" name={`Recusar ${which} de vez, conta encerrada (AC05)`} onClick={run('refuse', 'AC05')} />
      <NamedActionButton className="secondary" label="Pagador cancela" name={`Pagador cancela o ${which}`} onClick={run('payer-cancel')} />
      <FormProblem problem={problem} />
    </div>
  );
}

/** The payer and their bank, simulated (sandbox only): answer the consent, cancel, and run the jobs now. */
function SandboxActions({ recurrence }: { recurrence: Recurrence }) {
  const act = $api.useMutation('post', '/dashboard/api/v1/sandbox/recurrences/{recurrenceId}/{action}');
  const runJobs = $api.useMutation('post', '/dashboard/api/v1/sandbox/recurrences/run');
  const invalidate = useInvalidate();
  const [result, setResult] = useState<string>();
  const [problem, setProblem] = useState<ApiProblem>();
  const run = (action: 'approve' | 'reject' | 'expire' | 'payer-cancel', done: string) => async () => {
    setResult(undefined);
    const outcome = await attemptAction(() => act.mutateAsync({ params: { path: { recurrenceId: recurrence.id, action } } }));
    await invalidate(...READS);
    if (!outcome.ok) return setProblem(outcome.problem);
    setProblem(undefined);
    setResult(done);
  };
  const jobs = async () => {
    setResult(undefined);
    const outcome = await attemptAction(() => runJobs.mutateAsync({}));
    await invalidate(...READS);
    if (!outcome.ok) return setProblem(outcome.problem);
    setProblem(undefined);
    const { scheduled } = outcome.data;
    setResult(scheduled === 0 ? 'Rotinas executadas: nenhum ciclo novo a enviar agora.' : `Rotinas executadas: ${scheduled} ${scheduled === 1 ? 'ciclo enviado' : 'ciclos enviados'} ao banco do pagador.`);
  };
  return (
    <section className="card" aria-label="Ações de teste (sandbox)">
      <h2>Ações de teste (sandbox)</h2>
      <p className="muted">Simulam o pagador e o banco dele. Nenhum dinheiro real se move.</p>
      {result ? <Notice>{result}</Notice> : null}
      <FormProblem problem={problem} />
      <div className="actions">
        {recurrence.status === 'created' ? (
          <>
            <ActionButton label="Pagador aprova" onClick={run('approve', 'O pagador autorizou a recorrência.')} />
            <ActionButton className="secondary" label="Pagador rejeita (AP13)" onClick={run('reject', 'O pagador rejeitou a recorrência.')} />
            <ActionButton className="secondary" label="Expirar autorização" onClick={run('expire', 'A autorização expirou sem resposta do pagador.')} />
          </>
        ) : null}
        {recurrence.status === 'approved' ? (
          <>
            <ActionButton label="Executar rotinas agora" onClick={jobs} />
            <ActionButton className="secondary" label="Pagador cancela" onClick={run('payer-cancel', 'O pagador cancelou a recorrência.')} />
          </>
        ) : null}
      </div>
      {recurrence.status === 'approved' ? <p className="hint">As rotinas enviam ao banco do pagador os ciclos que vencem nos próximos 10 dias; o débito de cada um é simulado na tabela de ciclos.</p> : null}
      {recurrence.amountCents !== undefined && recurrence.status === 'created' && recurrence.consent.journey === 'qrcode_with_payment' ? (
        <p className="hint">Ao aprovar, o pagador paga também o primeiro pagamento ({formatBrl(recurrence.amountCents)} por ciclo depois).</p>
      ) : null}
    </section>
  );
}
