import { useState } from 'react';
import type { ApiProblem } from '../../../shared/api.ts';
import { formatBrl, formatDateTime, maskDocument, statusLabel } from '../../../shared/format.ts';
import { parseBrl } from '../../../shared/money.ts';
import { DataTable, FactList } from '../../../shared/table.tsx';
import { ActionForm, ConfirmButton, CopyButton, FormProblem, Money, MoneyField, Notice, Status } from '../../../shared/ui.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { attempt, attemptAction, useInvalidate } from '../data.ts';
import { DetailFrame } from '../lists.tsx';
import { may } from '../roles.ts';
import { STATIC_QR_STATUS, StaticQrAmount } from './StaticQrCodes.tsx';

type Code = Schemas['DashboardStaticQrCode'];
type Payment = Schemas['DashboardStaticQrPayment'];

/** The server's answer to an id that is not a static QR code of the account. */
const NOT_FOUND = 'QR code estático não encontrado.';

/**
 * One static QR code: its QR image, the copy-and-paste code, the downloads (PNG, SVG), its payments, and
 * "Desativar QR code" (asked first) while active; in the sandbox, "Simular pagamento".
 */
export function StaticQrCodePage({ staticQrCodeId, session, justCreated }: { staticQrCodeId: string; session: Session; justCreated?: 'created' | 'repeated' | undefined }) {
  const valid = /^sqr_[0-9a-f]{24}$/.test(staticQrCodeId);
  const codeQuery = $api.useQuery('get', '/dashboard/api/v1/static-qrcodes/{staticQrCodeId}', { params: { path: { staticQrCodeId } } }, { enabled: valid });
  return (
    <DetailFrame
      back={{ href: '#/qr-codes-estaticos', label: 'QR codes estáticos' }}
      title="QR code estático"
      notFound={{ title: 'QR code estático não encontrado', message: NOT_FOUND, none: 'Nenhum QR code estático' }}
      id={staticQrCodeId}
      valid={valid}
      query={codeQuery}
    >
      {(code) => <StaticQrCodeDetail code={code} session={session} justCreated={justCreated} />}
    </DetailFrame>
  );
}

const imageUrl = (id: string, format: 'png' | 'svg') => `/dashboard/api/v1/static-qrcodes/${id}/qrcode?format=${format}`;

function StaticQrCodeDetail({ code, session, justCreated }: { code: Code; session: Session; justCreated: 'created' | 'repeated' | undefined }) {
  const invalidate = useInvalidate();
  const deactivate = $api.useMutation('post', '/dashboard/api/v1/static-qrcodes/{staticQrCodeId}/deactivate');
  const [notice, setNotice] = useState<string>();
  const [problem, setProblem] = useState<ApiProblem>();
  const id = code.staticQrCodeId;
  const active = code.status === 'active';
  const title = code.description ?? 'QR code estático';

  const deactivateCode = async () => {
    setNotice(undefined);
    const outcome = await attemptAction(() => deactivate.mutateAsync({ params: { path: { staticQrCodeId: id } } }));
    await invalidate('/dashboard/api/v1/static-qrcodes', '/dashboard/api/v1/static-qrcodes/{staticQrCodeId}');
    if (!outcome.ok) {
      setProblem(outcome.problem);
      return;
    }
    setProblem(undefined);
    setNotice('QR code desativado: um Pix feito com ele daqui em diante não é creditado.');
  };

  const facts = [
    { name: 'Situação', value: <Status value={active ? 'active' : 'cancelled'} label={STATIC_QR_STATUS[code.status]} /> },
    { name: 'Valor', value: <StaticQrAmount code={code} /> },
    ...(code.description ? [{ name: 'Descrição', value: code.description }] : []),
    ...(code.externalRef ? [{ name: 'Referência', value: <span className="wrap-anywhere">{code.externalRef}</span> }] : []),
    { name: 'Pagamentos', value: String(code.paymentsCount) },
    { name: 'Total recebido', value: <Money cents={code.receivedCents} /> },
    ...(code.lastPaidAt !== undefined ? [{ name: 'Último pagamento', value: formatDateTime(code.lastPaidAt) }] : []),
    { name: 'Criado em', value: formatDateTime(code.createdAt) },
    ...(code.deactivatedAt !== undefined ? [{ name: 'Desativado em', value: formatDateTime(code.deactivatedAt) }] : []),
    { name: 'Identificador (txid)', value: <code className="wrap-anywhere">{code.txid}</code> },
  ];

  return (
    <>
      <h1 className="wrap-anywhere">{title}</h1>
      {justCreated === 'created' ? <Notice>QR code estático criado. Imprima-o ou mostre-o ao pagador.</Notice> : null}
      {justCreated === 'repeated' ? <Notice>Este QR code já tinha sido criado com esta referência; é o mesmo.</Notice> : null}
      {notice ? <Notice>{notice}</Notice> : null}
      <FormProblem problem={problem} />
      {!active ? <p className="warning">Desativado: um Pix feito com este QR code não é creditado. Não o use mais.</p> : null}
      <section className="card charge-code" aria-label="QR code e Pix copia e cola">
        <h2>{active ? 'Pague com Pix' : 'Pix copia e cola'}</h2>
        <div className="qr-row">
          <div className="qr">
            <img src={`${imageUrl(id, 'png')}&size=440`} alt={`QR code Pix: ${title}`} width={220} height={220} data-testid="static-qr-image" />
          </div>
          <div>
            <pre className="payload" data-testid="static-qr-payload">
              {code.pixPayload}
            </pre>
            <div className="actions">
              <CopyButton className="secondary" text={code.pixPayload} label="Copiar código" done="Código copiado" />
            </div>
            <div className="actions">
              <a className="button secondary" href={imageUrl(id, 'png')} download={`pixgate-qr-${id}.png`}>
                Baixar PNG
              </a>
              <a className="button secondary" href={imageUrl(id, 'svg')} download={`pixgate-qr-${id}.svg`}>
                Baixar SVG
              </a>
            </div>
          </div>
        </div>
      </section>
      <FactList label="Dados do QR code" facts={facts} />
      <h2>Pagamentos</h2>
      {code.payments.length === 0 ? <p className="muted">Nenhum pagamento recebido ainda.</p> : <PaymentTable payments={code.payments} />}
      {code.paymentsCount > code.payments.length ? <p className="muted">Mostrando os {code.payments.length} mais recentes; todos estão em Transações.</p> : null}
      {session.sandbox && may(session, 'sandboxPayDashboardStaticQrCode') ? <SimulatePayment code={code} /> : null}
      {active && may(session, 'deactivateDashboardStaticQrCode') ? (
        <div className="actions">
          <ConfirmButton
            label="Desativar QR code"
            danger
            confirm={`Desativar "${title}"? Um Pix feito com ele depois disso não será creditado, e ele não pode ser reativado.`}
            onConfirm={deactivateCode}
          />
        </div>
      ) : null}
    </>
  );
}

function PaymentTable({ payments }: { payments: Payment[] }) {
  return (
    <DataTable
      caption="Pagamentos do QR code"
      testId="static-qr-payments"
      rows={payments}
      rowKey={(payment) => payment.transactionId}
      columns={[
        {
          header: 'Pago em',
          kind: 'title',
          cell: (payment) => (
            <a href={`#/transacoes/${payment.transactionId}`} className="nowrap">
              {formatDateTime(payment.paidAt)}
            </a>
          ),
        },
        { header: 'Valor', kind: 'money', cell: (payment) => <Money cents={payment.amountCents} /> },
        { header: 'Pagador', cell: (payment) => (payment.payer ? `${payment.payer.name} (${maskDocument(payment.payer.document)})` : <span className="muted">Não informado</span>) },
        { header: 'Identificador fim a fim (E2E)', cell: (payment) => <code className="wrap-anywhere">{payment.endToEndId ?? '—'}</code> },
        { header: 'Situação', cell: (payment) => <Status value={payment.status} label={statusLabel(payment.status)} /> },
      ]}
    />
  );
}

/** What the sandbox's Pix became, in words. */
function outcomeText(result: Schemas['SandboxStaticQrCodePayment']): string {
  if (result.outcome === 'credited') return `Pagamento simulado creditado: ${formatBrl(result.payment?.amountCents ?? 0)}. Ele aparece em Pagamentos.`;
  if (result.outcome === 'already_credited') return 'Este Pix já tinha sido creditado.';
  return result.reason === 'charge_not_payable'
    ? 'O Pix de teste não foi creditado: o QR code está desativado.'
    : 'O Pix de teste não foi creditado: o valor não é o do QR code (ou está fora dos limites da conta).';
}

/** "Simular pagamento" (sandbox only): a payer's bank sends a Pix with this code, the amount typed on an open one. */
function SimulatePayment({ code }: { code: Code }) {
  const pay = $api.useMutation('post', '/dashboard/api/v1/sandbox/static-qrcodes/{staticQrCodeId}/pay');
  const invalidate = useInvalidate();
  const [amount, setAmount] = useState('');
  const [problem, setProblem] = useState<ApiProblem>();
  const [result, setResult] = useState<string>();
  return (
    <section className="card" aria-label="Ações de teste (sandbox)">
      <h2>Ações de teste (sandbox)</h2>
      <p className="muted">Simula o Pix de um pagador com este QR code, como o banco dele o enviaria. Nenhum dinheiro real se move.</p>
      {result ? <Notice>{result}</Notice> : null}
      <ActionForm
        label="Simular pagamento"
        secondary
        fields={['amountCents']}
        problem={problem}
        onProblem={setProblem}
        action={async () => {
          setResult(undefined);
          let amountCents: number | undefined;
          if (amount.trim() !== '') {
            amountCents = parseBrl(amount);
            if (amountCents === undefined) return { error: 'Valor do Pix: informe um valor em reais, por exemplo 15,00.', field: 'amountCents' };
          }
          const sent = await attempt(() => pay.mutateAsync({ params: { path: { staticQrCodeId: code.staticQrCodeId } }, body: amountCents === undefined ? {} : { amountCents } }));
          if (!sent.ok) return sent.problem;
          await invalidate('/dashboard/api/v1/static-qrcodes', '/dashboard/api/v1/static-qrcodes/{staticQrCodeId}', '/dashboard/api/v1/transactions', '/dashboard/api/v1/overview');
          setResult(outcomeText(sent.data));
          return undefined;
        }}
      >
        <MoneyField
          label="Valor do Pix (R$, opcional)"
          name="amountCents"
          value={amount}
          onChange={setAmount}
          problem={problem}
          hint={code.amountCents === undefined ? 'Vazio: R$ 10,00.' : `Vazio: o valor do QR code (${formatBrl(code.amountCents)}). Outro valor não é creditado.`}
        />
      </ActionForm>
    </section>
  );
}
