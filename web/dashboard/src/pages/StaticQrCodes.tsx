import { useState } from 'react';
import { problemOf } from '../../../shared/api.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { DataTable } from '../../../shared/table.tsx';
import { Money, Notice, SelectField, Status } from '../../../shared/ui.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { ListState, PageNav, useCursorPages } from '../lists.tsx';
import { may } from '../roles.ts';

type StaticQrCode = Schemas['StaticQrCode'];

/** A code's status as the pages name it. */
export const STATIC_QR_STATUS: Record<StaticQrCode['status'], string> = { active: 'Ativo', inactive: 'Desativado' };

/** The amount of a code: fixed, or typed by the payer. */
export function StaticQrAmount({ code }: { code: Pick<StaticQrCode, 'amountCents'> }) {
  return code.amountCents === undefined ? <span>Valor livre</span> : <Money cents={code.amountCents} />;
}

/** The codes as a table, one card each on a phone: the description first, then the amounts (issue 38). */
function StaticQrCodeTable({ codes }: { codes: StaticQrCode[] }) {
  return (
    <DataTable
      caption="QR codes estáticos"
      testId="static-qrcodes"
      rows={codes}
      rowKey={(code) => code.staticQrCodeId}
      columns={[
        {
          header: 'Descrição',
          kind: 'title',
          cell: (code) => (
            <a href={`#/qr-codes-estaticos/${code.staticQrCodeId}`} className="wrap-anywhere">
              {code.description ?? code.externalRef ?? 'QR code sem descrição'}
            </a>
          ),
        },
        { header: 'Valor', kind: 'money', cell: (code) => <StaticQrAmount code={code} /> },
        { header: 'Recebido', kind: 'money', cell: (code) => <Money cents={code.receivedCents} /> },
        { header: 'Pagamentos', cell: (code) => String(code.paymentsCount) },
        { header: 'Criado em', cell: (code) => <span className="nowrap">{formatDateTime(code.createdAt)}</span> },
        { header: 'Situação', cell: (code) => <Status value={code.status === 'active' ? 'active' : 'cancelled'} label={STATIC_QR_STATUS[code.status]} /> },
      ]}
    />
  );
}

/**
 * "QR codes estáticos": GET /dashboard/api/v1/static-qrcodes, newest first, filtered by situation, in real
 * pages (the cursor of each page kept, so "Anterior" goes back).
 */
export function StaticQrCodesPage({ session }: { session: Session }) {
  const [status, setStatus] = useState('');
  const pages = useCursorPages();
  const cursor = pages.cursor;
  const statusFilter: StaticQrCode['status'] | undefined = status === 'active' || status === 'inactive' ? status : undefined;
  const query = { limit: 20, ...(statusFilter ? { status: statusFilter } : {}), ...(cursor ? { cursor } : {}) };
  const listQuery = $api.useQuery('get', '/dashboard/api/v1/static-qrcodes', { params: { query } });
  const list = listQuery.data;
  const problem = listQuery.error ? problemOf(listQuery.error) : undefined;
  const fieldProblem = problem?.field === 'status';

  return (
    <>
      <p>
        <a href="#/transacoes">← Transações</a>
      </p>
      <h1>QR codes estáticos</h1>
      <p className="muted">
        Um QR code Pix fixo para imprimir no balcão, no caixa ou numa página de doações: com valor definido ou livre (o pagador digita o valor). Cada Pix
        recebido é um pagamento, que aparece também em Transações.
      </p>
      {may(session, 'createDashboardStaticQrCode') ? (
        <p className="actions">
          <a className="button" href="#/qr-codes-estaticos/novo">
            Novo QR code estático
          </a>
        </p>
      ) : null}
      <div className="filters" role="group" aria-label="Filtros de QR codes estáticos">
        <SelectField
          label="Situação"
          name="status"
          value={status}
          onChange={(value) => {
            setStatus(value);
            pages.restart();
          }}
          problem={problem}
          options={[
            { value: '', label: 'Todos' },
            { value: 'active', label: 'Ativos' },
            { value: 'inactive', label: 'Desativados' },
          ]}
        />
      </div>
      <ListState filterProblem={fieldProblem} query={listQuery}>
        {list ? list.count === 0 ? <Notice>Nenhum QR code estático.</Notice> : <StaticQrCodeTable codes={list.staticQrCodes} /> : null}
      </ListState>
      <PageNav pages={pages} nextCursor={list?.nextCursor} />
    </>
  );
}
