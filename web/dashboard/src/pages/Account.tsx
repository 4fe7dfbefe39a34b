import { useState } from 'react';
import type { ApiProblem } from '../../../shared/api.ts';
import { formatDocument } from '../../../shared/format.ts';
import { ActionForm, Notice } from '../../../shared/ui.tsx';
import { $api, type Session } from '../api.ts';
import { CityFields, type StateCode } from '../CityFields.tsx';
import { attempt, useInvalidate } from '../data.ts';
import { may } from '../roles.ts';

/**
 * Conta: the company as PixGate knows it and the setting its owners and admins change themselves, the
 * city of its Pix (issue 38, defect 12): the municipality every new BR Code carries (field 60).
 */
export function AccountPage({ session }: { session: Session }) {
  const account = session.account;
  const [place, setPlace] = useState({ city: account.city ?? '', state: account.state ?? '' });
  const [problem, setProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();
  const update = $api.useMutation('patch', '/dashboard/api/v1/account');
  const invalidate = useInvalidate();
  return (
    <>
      <h1>Conta</h1>
      <section className="card" aria-label="Empresa">
        <h2>Empresa</h2>
        <dl className="facts">
          <dt>Razão social</dt>
          <dd>{account.legalName}</dd>
          <dt>CNPJ</dt>
          <dd className="nowrap">{formatDocument(account.companyCnpj)}</dd>
          <dt>Cidade do Pix</dt>
          <dd>{account.city ? `${account.city} (${account.state ?? ''})` : 'Não informada: o Pix mostra SAO PAULO a quem paga.'}</dd>
        </dl>
      </section>
      <section className="card" aria-label="Cidade do Pix">
        <h2>Cidade do Pix</h2>
        <p className="muted">
          A cidade que o aplicativo do banco de quem paga mostra em cada cobrança (o campo “cidade” do QR code e do Pix copia e cola). Vale para as cobranças
          criadas daqui em diante.
        </p>
        {notice ? <Notice>{notice}</Notice> : null}
        {may(session, 'updateDashboardAccount') ? (
          <ActionForm
            label="Salvar cidade"
            fields={['city', 'state']}
            problem={problem}
            onProblem={setProblem}
            action={async () => {
              setNotice(undefined);
              const saved = await attempt(() => update.mutateAsync({ body: { city: place.city, state: place.state as StateCode } }));
              if (!saved.ok) return saved.problem;
              setPlace({ city: saved.data.city ?? '', state: saved.data.state ?? '' });
              setNotice(`Cidade salva: ${saved.data.city ?? ''} (${saved.data.state ?? ''}).`);
              await invalidate('/dashboard/api/v1/session', '/dashboard/api/v1/overview');
              return undefined;
            }}
          >
            <CityFields city={place.city} state={place.state} problem={problem} onChange={setPlace} />
          </ActionForm>
        ) : (
          <p className="muted">Só o proprietário e os administradores da conta mudam a cidade.</p>
        )}
      </section>
    </>
  );
}
