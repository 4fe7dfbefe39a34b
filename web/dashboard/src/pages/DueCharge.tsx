import { useState } from 'react';
import type { ApiProblem } from '../../../shared/api.ts';
import { formatBrl, formatDate, formatDateTime, maskDocument, statusLabel } from '../../../shared/format.ts';
import { FactList } from '../../../shared/table.tsx';
import { ConfirmButton, FormProblem, Money, Notice, Status } from '../../../shared/ui.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { attemptAction, useInvalidate } from '../data.ts';
import { amountDueParts, termsInWords } from '../dueChargeTerms.ts';
import { DetailFrame } from '../lists.tsx';
import { may } from '../roles.ts';
import { ChargeCode } from './Transaction.tsx';

type DueCharge = Schemas['DueCharge'];

/** The server's answer to an id that is not a charge with a due date of the account. */
const NOT_FOUND = 'Cobrança com vencimento não encontrada.';

/**
 * One charge with a due date: its BR Code and QR code, the amount due today with its parts, the terms, and
 * "Cancelar cobrança" (asked first) while it is pending. `justCreated` is the form's outcome.
 */
export function DueChargePage({ transactionId, session, justCreated }: { transactionId: string; session: Session; justCreated?: 'created' | 'repeated' | undefined }) {
  const valid = /^tx_[0-9a-f]{24}$/.test(transactionId);
  const chargeQuery = $api.useQuery('get', '/dashboard/api/v1/due-charges/{transactionId}', { params: { path: { transactionId } } }, { enabled: valid });
  return (
    <DetailFrame
      back={{ href: '#/cobrancas-com-vencimento', label: 'Cobranças com vencimento' }}
      title="Cobrança com vencimento"
      notFound={{ title: 'Cobrança com vencimento não encontrada', message: NOT_FOUND, none: 'Nenhuma cobrança com vencimento' }}
      id={transactionId}
      valid={valid}
      query={chargeQuery}
    >
      {(charge) => <DueChargeDetail charge={charge} session={session} justCreated={justCreated} />}
    </DetailFrame>
  );
}

function addressText(address: NonNullable<DueCharge['customer']['address']>): string {
  return `${address.street}, ${address.city}/${address.state}, CEP ${address.postalCode.replace(/^(\d{5})(\d{3})$/, '$1-$2')}`;
}

function DueChargeDetail({ charge, session, justCreated }: { charge: DueCharge; session: Session; justCreated: 'created' | 'repeated' | undefined }) {
  const invalidate = useInvalidate();
  const cancel = $api.useMutation('post', '/dashboard/api/v1/due-charges/{transactionId}/cancel');
  const [notice, setNotice] = useState<string>();
  const [problem, setProblem] = useState<ApiProblem>();
  const transactionId = charge.transactionId;
  const pending = charge.status === 'pending';
  const terms = termsInWords(charge);

  const cancelCharge = async () => {
    setNotice(undefined);
    const outcome = await attemptAction(() => cancel.mutateAsync({ params: { path: { transactionId } } }));
    await invalidate('/dashboard/api/v1/due-charges', '/dashboard/api/v1/due-charges/{transactionId}', '/dashboard/api/v1/transactions', '/dashboard/api/v1/overview');
    if (!outcome.ok) {
      setProblem(outcome.problem);
      return;
    }
    setProblem(undefined);
    setNotice('Cobrança cancelada: o pagador não consegue mais pagá-la.');
  };

  const facts = [
    { name: 'Situação', value: <Status value={charge.status} label={statusLabel(charge.status)} /> },
    { name: 'Pagador', value: `${charge.customer.name} (${maskDocument(charge.customer.document.number)})` },
    ...(charge.customer.address ? [{ name: 'Endereço', value: addressText(charge.customer.address) }] : []),
    { name: 'Valor', value: <Money cents={charge.amountCents} /> },
    { name: 'Vencimento', value: formatDate(charge.dueDate) },
    { name: 'Prazo após o vencimento', value: `${charge.daysAfterDue} ${charge.daysAfterDue === 1 ? 'dia' : 'dias'}` },
    { name: 'Pagável até', value: formatDate(charge.lastPayableDate) },
    ...(charge.description ? [{ name: 'Descrição', value: charge.description }] : []),
    ...(charge.externalRef ? [{ name: 'Referência', value: <span className="wrap-anywhere">{charge.externalRef}</span> }] : []),
    ...(charge.paidAmountCents !== undefined ? [{ name: 'Valor pago', value: <Money cents={charge.paidAmountCents} /> }] : []),
    ...(charge.feeCents !== undefined ? [{ name: 'Tarifa', value: <Money cents={charge.feeCents} /> }] : []),
    ...(charge.paidAt !== undefined ? [{ name: 'Paga em', value: formatDateTime(charge.paidAt) }] : []),
    { name: 'Criada em', value: formatDateTime(charge.createdAt) },
  ];

  return (
    <>
      <h1>Cobrança com vencimento</h1>
      {justCreated === 'created' ? <Notice>Cobrança com vencimento criada. Envie o código Pix abaixo ao pagador.</Notice> : null}
      {justCreated === 'repeated' ? <Notice>Esta cobrança já tinha sido criada com esta referência; é a mesma.</Notice> : null}
      {notice ? <Notice>{notice}</Notice> : null}
      <FormProblem problem={problem} />
      {pending ? (
        <div className="metrics">
          <section className="metric" aria-label="Valor a pagar hoje">
            <div className="label">A pagar hoje ({formatDate(charge.amountDue.date)})</div>
            {charge.amountDue.payable && charge.amountDue.amountCents !== undefined ? (
              <>
                <div className="value" data-testid="amount-due-today">
                  <Money cents={charge.amountDue.amountCents} />
                </div>
                {amountDueParts(charge.amountDue).length > 0 ? (
                  <p className="hint">
                    {formatBrl(charge.amountCents)} {amountDueParts(charge.amountDue).join(' ')}
                  </p>
                ) : null}
              </>
            ) : (
              <p>Não pode mais ser paga: o último dia era {formatDate(charge.lastPayableDate)}.</p>
            )}
          </section>
        </div>
      ) : null}
      <FactList label="Dados da cobrança" facts={facts} />
      <h2>Condições</h2>
      {terms.length > 0 ? <FactList label="Condições" facts={terms} /> : <p>Sem multa, juros, desconto ou abatimento.</p>}
      {charge.pixPayload ? <ChargeCode transactionId={transactionId} payload={charge.pixPayload} payable={pending} /> : null}
      <div className="actions">
        <a className="button secondary" href={`#/transacoes/${transactionId}`}>
          Eventos e webhooks da transação
        </a>
        {pending && may(session, 'cancelDashboardDueCharge') ? (
          <ConfirmButton
            label="Cancelar cobrança"
            danger
            confirm={`Cancelar a cobrança de ${charge.customer.name} (${formatBrl(charge.amountCents)})? O pagador não conseguirá mais pagá-la.`}
            onConfirm={cancelCharge}
          />
        ) : null}
      </div>
    </>
  );
}
