import { useState } from 'react';
import { problemOf } from '../../../shared/api.ts';
import { DataTable } from '../../../shared/table.tsx';
import { Money, Notice, SelectField, Status } from '../../../shared/ui.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { ListState, PageNav, useCursorPages } from '../lists.tsx';
import { expiryText, LINK_STATUSES, linkStatusLabel, linkStatusTone, usageText, type PaymentLinkStatus } from '../paymentLinkTerms.ts';
import { may } from '../roles.ts';

type PaymentLink = Schemas['PaymentLink'];

/** The links as a table, one card each on a phone: the description first, then the amount. */
export function PaymentLinkTable({ links }: { links: PaymentLink[] }) {
  return (
    <DataTable
      caption="Links de pagamento"
      testId="payment-links"
      rows={links}
      rowKey={(link) => link.linkId}
      columns={[
        {
          header: 'Descrição',
          kind: 'title',
          cell: (link) => (
            <a href={`#/links-de-pagamento/${link.linkId}`} className="wrap-anywhere">
              {link.description}
            </a>
          ),
        },
        { header: 'Valor', kind: 'money', cell: (link) => <Money cents={link.amountCents} /> },
        { header: 'Uso', cell: (link) => usageText(link) },
        { header: 'Validade', cell: (link) => <span className="nowrap">{expiryText(link)}</span> },
        {
          header: 'Pagamentos',
          cell: (link) => (
            <>
              {link.paymentsCount} {link.paymentsCount > 0 ? <span className="muted">(<Money cents={link.receivedCents} />)</span> : null}
            </>
          ),
        },
        { header: 'Situação', cell: (link) => <Status value={linkStatusTone(link.status)} label={linkStatusLabel(link.status)} /> },
      ]}
    />
  );
}

/**
 * "Links de pagamento": GET /dashboard/api/v1/payment-links, newest first, filtered by situation, in real
 * pages (the cursor of each page kept, so "Anterior" goes back).
 */
export function PaymentLinksPage({ session }: { session: Session }) {
  const [status, setStatus] = useState('');
  const pages = useCursorPages();
  const cursor = pages.cursor;
  const query = { limit: 20, ...(status ? { status: status as PaymentLinkStatus } : {}), ...(cursor ? { cursor } : {}) };
  const listQuery = $api.useQuery('get', '/dashboard/api/v1/payment-links', { params: { query } });
  const list = listQuery.data;
  const problem = listQuery.error ? problemOf(listQuery.error) : undefined;
  const fieldProblem = problem?.field === 'status';

  return (
    <>
      <h1>Links de pagamento</h1>
      <p className="muted">Um endereço para enviar ao pagador por WhatsApp ou e-mail: ele abre a página, vê o valor e paga com Pix. Os pagamentos aparecem também em Transações.</p>
      {may(session, 'createDashboardPaymentLink') ? (
        <p className="actions">
          <a className="button" href="#/links-de-pagamento/novo">
            Novo link de pagamento
          </a>
        </p>
      ) : null}
      <div className="filters" role="group" aria-label="Filtros de links de pagamento">
        <SelectField
          label="Situação"
          name="status"
          value={status}
          onChange={(value) => {
            setStatus(value);
            pages.restart();
          }}
          problem={problem}
          options={[{ value: '', label: 'Todas' }, ...LINK_STATUSES.map((value) => ({ value, label: linkStatusLabel(value) }))]}
        />
      </div>
      <ListState filterProblem={fieldProblem} query={listQuery}>
        {list ? list.count === 0 ? <Notice>Nenhum link de pagamento.</Notice> : <PaymentLinkTable links={list.paymentLinks} /> : null}
      </ListState>
      <PageNav pages={pages} nextCursor={list?.nextCursor} />
    </>
  );
}
