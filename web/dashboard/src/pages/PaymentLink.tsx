import { useState } from 'react';
import type { ApiProblem } from '../../../shared/api.ts';
import { formatBrl, formatDateTime, maskDocument, statusLabel } from '../../../shared/format.ts';
import { DataTable, FactList } from '../../../shared/table.tsx';
import { ConfirmButton, CopyButton, FormProblem, Money, Notice, Status } from '../../../shared/ui.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { attemptAction, useInvalidate } from '../data.ts';
import { DetailFrame } from '../lists.tsx';
import { expiryText, linkStatusLabel, linkStatusTone, usageText, whatsappUrl } from '../paymentLinkTerms.ts';
import { may } from '../roles.ts';

type Detail = Schemas['DashboardPaymentLink'];
type Payment = Schemas['DashboardPaymentLinkPayment'];

/** The server's answer to an id that is not a payment link of the account. */
const NOT_FOUND = 'Link de pagamento não encontrado.';
/** Why the link's page takes no more payments, once it is no longer active. */
const ENDED: Record<Exclude<Detail['link']['status'], 'active'>, string> = {
  used: 'Este link já foi pago: a página não aceita outro pagamento.',
  expired: 'Este link expirou: a página não aceita mais pagamentos.',
  inactive: 'Este link foi desativado: a página não aceita mais pagamentos.',
};
/** Payments arrive while the page is open (a payer on the hosted page): read again every 10 s. */
const REFRESH_MS = 10_000;

/**
 * One payment link: its address with "Copiar link", "Abrir página" and WhatsApp, the totals, its payments
 * (each a transaction, linked to its page), and "Desativar link" (asked first). `justCreated` is the form's
 * outcome.
 */
export function PaymentLinkPage({ linkId, session, justCreated }: { linkId: string; session: Session; justCreated?: 'created' | 'repeated' | undefined }) {
  const valid = /^pl_[0-9a-f]{24}$/.test(linkId);
  const linkQuery = $api.useQuery('get', '/dashboard/api/v1/payment-links/{linkId}', { params: { path: { linkId } } }, { enabled: valid, refetchInterval: REFRESH_MS });
  return (
    <DetailFrame
      back={{ href: '#/links-de-pagamento', label: 'Links de pagamento' }}
      title="Link de pagamento"
      notFound={{ title: 'Link de pagamento não encontrado', message: NOT_FOUND, none: 'Nenhum link de pagamento' }}
      id={linkId}
      valid={valid}
      query={linkQuery}
    >
      {(detail) => <PaymentLinkDetail detail={detail} session={session} justCreated={justCreated} />}
    </DetailFrame>
  );
}

function PayerText({ payment }: { payment: Payment }) {
  if (!payment.payer) return <span className="muted">—</span>;
  return (
    <span className="wrap-anywhere">
      {payment.payer.name} ({maskDocument(payment.payer.document)})
    </span>
  );
}

/** The link's charges, newest first: each links to its transaction's page (events, refunds). */
function PaymentTable({ payments }: { payments: Payment[] }) {
  return (
    <DataTable
      caption="Pagamentos do link"
      testId="payment-link-payments"
      rows={payments}
      rowKey={(payment) => payment.transactionId}
      columns={[
        {
          header: 'Transação',
          kind: 'title',
          cell: (payment) => (
            <a href={`#/transacoes/${payment.transactionId}`} className="wrap-anywhere">
              {payment.transactionId}
            </a>
          ),
        },
        { header: 'Valor', kind: 'money', cell: (payment) => <Money cents={payment.amountCents} /> },
        { header: 'Situação', cell: (payment) => <Status value={payment.status} label={statusLabel(payment.status)} /> },
        { header: 'Pagador', cell: (payment) => <PayerText payment={payment} /> },
        { header: 'Pago em', cell: (payment) => (payment.paidAt === undefined ? <span className="muted">—</span> : formatDateTime(payment.paidAt)) },
        { header: 'Aberto em', cell: (payment) => formatDateTime(payment.createdAt) },
      ]}
    />
  );
}

function PaymentLinkDetail({ detail, session, justCreated }: { detail: Detail; session: Session; justCreated: 'created' | 'repeated' | undefined }) {
  const { link, payments, totals } = detail;
  const invalidate = useInvalidate();
  const deactivate = $api.useMutation('post', '/dashboard/api/v1/payment-links/{linkId}/deactivate');
  const [notice, setNotice] = useState<string>();
  const [problem, setProblem] = useState<ApiProblem>();

  const deactivateLink = async () => {
    setNotice(undefined);
    const outcome = await attemptAction(() => deactivate.mutateAsync({ params: { path: { linkId: link.linkId } } }));
    await invalidate('/dashboard/api/v1/payment-links', '/dashboard/api/v1/payment-links/{linkId}');
    if (!outcome.ok) {
      setProblem(outcome.problem);
      return;
    }
    setProblem(undefined);
    setNotice('Link desativado: a página não abre mais nem gera cobranças.');
  };

  const facts = [
    { name: 'Situação', value: <Status value={linkStatusTone(link.status)} label={linkStatusLabel(link.status)} /> },
    { name: 'Descrição', value: <span className="wrap-anywhere">{link.description}</span> },
    { name: 'Valor', value: <Money cents={link.amountCents} /> },
    { name: 'Uso', value: usageText(link) },
    { name: 'Validade', value: expiryText(link) },
    ...(link.externalRef ? [{ name: 'Referência', value: <span className="wrap-anywhere">{link.externalRef}</span> }] : []),
    { name: 'Criado em', value: formatDateTime(link.createdAt) },
    ...(link.deactivatedAt !== undefined ? [{ name: 'Desativado em', value: formatDateTime(link.deactivatedAt) }] : []),
  ];

  return (
    <>
      <h1>Link de pagamento</h1>
      {justCreated === 'created' ? <Notice>Link de pagamento criado. Copie o endereço abaixo e envie ao pagador.</Notice> : null}
      {justCreated === 'repeated' ? <Notice>Este link já tinha sido criado com esta referência; é o mesmo.</Notice> : null}
      {notice ? <Notice>{notice}</Notice> : null}
      <FormProblem problem={problem} />
      <section className="card" aria-labelledby="endereco-do-link">
        <h2 id="endereco-do-link">Endereço do link</h2>
        <p className="wrap-anywhere">
          <code data-testid="payment-link-url">{link.url}</code>
        </p>
        {link.status === 'active' ? null : <p className="warning">{ENDED[link.status]}</p>}
        <div className="actions">
          <CopyButton text={link.url} label="Copiar link" done="Link copiado" />
          <a className="button secondary" href={link.url} target="_blank" rel="noopener noreferrer">
            Abrir página
          </a>
          {link.status === 'active' ? (
            <a className="button secondary" href={whatsappUrl(link)} target="_blank" rel="noopener noreferrer">
              Enviar pelo WhatsApp
            </a>
          ) : null}
        </div>
      </section>
      <div className="metrics">
        <section className="metric" aria-label="Pagamentos recebidos">
          <div className="label">Pagamentos recebidos</div>
          <div className="value" data-testid="payment-link-paid">
            {totals.paidCount}
          </div>
        </section>
        <section className="metric" aria-label="Total recebido">
          <div className="label">Total recebido</div>
          <div className="value" data-testid="payment-link-received">
            <Money cents={totals.receivedCents} />
          </div>
          {totals.refundedCents > 0 ? <p className="hint">{formatBrl(totals.refundedCents)} devolvidos</p> : null}
        </section>
        <section className="metric" aria-label="Aguardando pagamento">
          <div className="label">Aguardando pagamento</div>
          <div className="value">{totals.pendingCount}</div>
          <p className="hint">
            {totals.chargesCount} {totals.chargesCount === 1 ? 'cobrança gerada' : 'cobranças geradas'} por quem abriu o link
          </p>
        </section>
      </div>
      <FactList label="Dados do link" facts={facts} />
      <h2>Pagamentos</h2>
      {payments.length === 0 ? (
        <Notice>Nenhum pagamento ainda. Cada pessoa que abre o link recebe uma cobrança Pix; ela aparece aqui.</Notice>
      ) : (
        <>
          {totals.chargesCount > payments.length ? <p className="muted">As {payments.length} cobranças mais recentes, de {totals.chargesCount}.</p> : null}
          <PaymentTable payments={payments} />
        </>
      )}
      {link.status !== 'inactive' && may(session, 'deactivateDashboardPaymentLink') ? (
        <div className="actions">
          <ConfirmButton
            label="Desativar link"
            danger
            confirm={`Desativar o link "${link.description}" (${formatBrl(link.amountCents)})? A página deixa de aceitar pagamentos; não é possível reativá-lo.`}
            onConfirm={deactivateLink}
          />
        </div>
      ) : null}
    </>
  );
}
