import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { problemOf, type ApiProblem } from '../../../shared/api.ts';
import { formatBrl, formatDateTime, parseBrl, statusLabel } from '../../../shared/format.ts';
import { ActionForm, ConfirmButton, Field, FormProblem, Loading, Notice, SelectField, Status } from '../../../shared/ui.tsx';
import { api, may, type OperatorSession, type Schemas } from '../api.ts';
import { KYC_LABEL } from './Accounts.tsx';

type Account = Schemas['Account'];
type Update = Schemas['UpdateAccountRequest'];

/** Money fields of the account, edited in reais; the others are counts or basis points. */
const MONEY_FIELDS = [
  ['chargeFeeFixedCents', 'Tarifa fixa por cobrança (R$)'],
  ['withdrawalFeeFixedCents', 'Tarifa fixa por saque (R$)'],
  ['withdrawalMaxCents', 'Saque máximo (R$)'],
  ['withdrawalDailyCapCents', 'Limite diário de saques (R$)'],
  ['withdrawalMonthlyCapCents', 'Limite mensal de saques (R$)'],
] as const;
const COUNT_FIELDS = [
  ['chargeFeeBps', 'Tarifa proporcional por cobrança (pontos-base, 100 = 1%)'],
  ['withdrawalFeeBps', 'Tarifa proporcional por saque (pontos-base)'],
  ['chargeRatePerHour', 'Cobranças por hora'],
  ['withdrawalsPerHour', 'Saques por hora'],
  ['recipientLimit', 'Teto de destinatários ativos'],
  ['recipientsPerHour', 'Cadastros de destinatário por hora'],
] as const;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card" aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/**
 * One account: KYC, blocking, IP allowlist, fees, limits and the recipient ceiling; its balance, holds,
 * recipients (approve or reject with a note), webhooks, deliveries and API keys. Each action is audited.
 */
export function AccountPage({ accountId, session }: { accountId: string; session: OperatorSession }) {
  const [account, setAccount] = useState<Account>();
  const [problem, setProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();
  const [version, setVersion] = useState(0);
  const path = { params: { path: { accountId } } };

  const load = useCallback(async () => {
    const { data, error } = await api.GET('/admin/v1/accounts/{accountId}', { params: { path: { accountId } } });
    if (error) setProblem(problemOf(error));
    else setAccount(data);
  }, [accountId]);

  useEffect(() => {
    void load();
  }, [load, version]);

  const refresh = (message?: string) => {
    if (message) setNotice(message);
    setVersion((value) => value + 1);
  };

  const update = async (body: Update, message: string): Promise<ApiProblem | undefined> => {
    const { error } = await api.PATCH('/admin/v1/accounts/{accountId}', { ...path, body });
    if (error) return problemOf(error);
    refresh(message);
    return undefined;
  };

  if (!account) return problem ? <FormProblem problem={problem} /> : <Loading />;
  const canUpdate = may(session, 'updateAccount');
  return (
    <>
      <p>
        <a href="#/contas">← Contas</a>
      </p>
      <h1>{account.legalName}</h1>
      <p className="muted">
        {account.accountId} · CNPJ {account.companyCnpj} · responsável CPF {account.responsibleCpf} · {account.email} · criada em{' '}
        {formatDateTime(account.createdAt)}
      </p>
      {notice ? <Notice>{notice}</Notice> : null}
      <FormProblem problem={problem} />
      <Section title="Situação da conta">
        <p>
          <Status value={account.kycStatus === 'approved' ? 'approved' : account.kycStatus === 'rejected' ? 'rejected' : 'pending'} label={KYC_LABEL[account.kycStatus]} />{' '}
          {account.blocked ? <Status value="blocked" label="Bloqueada" /> : <Status value="active" label="Ativa" />}
        </p>
        {canUpdate ? (
          <div className="actions">
            {account.kycStatus !== 'approved' ? (
              <button type="button" onClick={() => void update({ kycStatus: 'approved' }, 'KYC aprovado.').then(setProblem)}>
                Aprovar KYC
              </button>
            ) : null}
            {account.kycStatus !== 'rejected' ? (
              <ConfirmButton label="Recusar KYC" danger confirm="Recusar o KYC? A conta deixa de operar." onConfirm={() => update({ kycStatus: 'rejected' }, 'KYC recusado.').then(setProblem)} />
            ) : null}
            {account.blocked ? (
              <button type="button" className="secondary" onClick={() => void update({ blocked: false }, 'Conta desbloqueada.').then(setProblem)}>
                Desbloquear
              </button>
            ) : (
              <ConfirmButton label="Bloquear" danger confirm="Bloquear a conta? Todas as chamadas da API passam a ser recusadas." onConfirm={() => update({ blocked: true }, 'Conta bloqueada.').then(setProblem)} />
            )}
          </div>
        ) : null}
      </Section>
      <BalanceSection accountId={accountId} version={version} />
      {canUpdate ? <SettingsSection account={account} update={update} /> : <ReadOnlySettings account={account} />}
      <HoldsSection accountId={accountId} session={session} version={version} onChanged={refresh} />
      <RecipientsSection accountId={accountId} session={session} version={version} onChanged={refresh} />
      <WebhooksSection accountId={accountId} session={session} version={version} onChanged={refresh} />
      <ApiKeysSection accountId={accountId} session={session} version={version} onChanged={refresh} />
    </>
  );
}

function BalanceSection({ accountId, version }: { accountId: string; version: number }) {
  const [balance, setBalance] = useState<Schemas['AccountBalance']>();
  useEffect(() => {
    void (async () => {
      const { data } = await api.GET('/admin/v1/accounts/{accountId}/balance', { params: { path: { accountId } } });
      setBalance(data);
    })();
  }, [accountId, version]);
  if (!balance) return null;
  return (
    <Section title="Saldo">
      <div className="metrics">
        <div className="metric">
          <div className="label">Disponível</div>
          <div className="value">{formatBrl(balance.availableCents)}</div>
        </div>
        <div className="metric">
          <div className="label">Bloqueios ativos</div>
          <div className="value">{formatBrl(balance.heldCents)}</div>
        </div>
        <div className="metric">
          <div className="label">Reservado (saques em aprovação)</div>
          <div className="value">{formatBrl(balance.reservedCents)}</div>
        </div>
        <div className="metric">
          <div className="label">Disponível para saque</div>
          <div className="value">{formatBrl(balance.withdrawableCents)}</div>
        </div>
      </div>
      <p>{balance.ledgerConsistent ? 'Razão consistente.' : `Razão inconsistente: ${balance.violations.join('; ')}`}</p>
    </Section>
  );
}

function ReadOnlySettings({ account }: { account: Account }) {
  return (
    <Section title="Tarifas, limites e IPs permitidos">
      <ul>
        {MONEY_FIELDS.map(([field, label]) => (
          <li key={field}>
            {label.replace(' (R$)', '')}: {formatBrl(account[field])}
          </li>
        ))}
        {COUNT_FIELDS.map(([field, label]) => (
          <li key={field}>
            {label}: {account[field]}
          </li>
        ))}
        <li>IPs permitidos: {account.ipAllowlist.length ? account.ipAllowlist.join(', ') : 'qualquer IP'}</li>
      </ul>
    </Section>
  );
}

function SettingsSection({ account, update }: { account: Account; update: (body: Update, message: string) => Promise<ApiProblem | undefined> }) {
  const initial = () => ({
    ...Object.fromEntries(MONEY_FIELDS.map(([field]) => [field, (account[field] / 100).toFixed(2).replace('.', ',')])),
    ...Object.fromEntries(COUNT_FIELDS.map(([field]) => [field, String(account[field])])),
  });
  const [values, setValues] = useState<Record<string, string>>(initial);
  const [approvalMode, setApprovalMode] = useState<string>(account.withdrawalApprovalMode);
  const [ipText, setIpText] = useState(account.ipAllowlist.join('\n'));
  const [problem, setProblem] = useState<ApiProblem>();
  const [ipProblem, setIpProblem] = useState<ApiProblem>();

  return (
    <>
      <Section title="Tarifas e limites">
        <ActionForm
          label="Salvar tarifas e limites"
          fields={[...MONEY_FIELDS.map(([field]) => field), ...COUNT_FIELDS.map(([field]) => field), 'withdrawalApprovalMode']}
          problem={problem}
          onProblem={setProblem}
          action={async () => {
            const body: Record<string, number | string> = {};
            for (const [field, label] of MONEY_FIELDS) {
              const cents = parseBrl(values[field] ?? '');
              if (cents === undefined) return { error: `${label}: informe um valor em reais, por exemplo 1.000,00.`, field };
              if (cents !== account[field]) body[field] = cents;
            }
            for (const [field, label] of COUNT_FIELDS) {
              const text = (values[field] ?? '').trim();
              if (!/^\d+$/.test(text)) return { error: `${label}: informe um número inteiro.`, field };
              if (Number(text) !== account[field]) body[field] = Number(text);
            }
            if (approvalMode !== account.withdrawalApprovalMode) body.withdrawalApprovalMode = approvalMode;
            if (Object.keys(body).length === 0) return { error: 'Nada mudou.' };
            return update(body as Update, 'Tarifas e limites salvos.');
          }}
        >
          <div className="grid-2">
            {MONEY_FIELDS.map(([field, label]) => (
              <Field key={field} label={label} name={field} inputMode="decimal" value={values[field] ?? ''} onChange={(event) => setValues({ ...values, [field]: event.target.value })} problem={problem} />
            ))}
            {COUNT_FIELDS.map(([field, label]) => (
              <Field key={field} label={label} name={field} inputMode="numeric" value={values[field] ?? ''} onChange={(event) => setValues({ ...values, [field]: event.target.value })} problem={problem} />
            ))}
            <SelectField
              label="Aprovação de saques"
              name="withdrawalApprovalMode"
              value={approvalMode}
              onChange={setApprovalMode}
              problem={problem}
              options={[
                { value: 'automatic', label: 'Automática' },
                { value: 'manual', label: 'Manual (fila de aprovação)' },
              ]}
            />
          </div>
        </ActionForm>
      </Section>
      <Section title="IPs permitidos">
        <ActionForm
          label="Salvar IPs permitidos"
          fields={['ipAllowlist']}
          problem={ipProblem}
          onProblem={setIpProblem}
          action={() =>
            update(
              {
                ipAllowlist: ipText
                  .split(/[\s,]+/)
                  .map((entry) => entry.trim())
                  .filter(Boolean),
              },
              'IPs permitidos salvos.',
            )
          }
        >
          <div className="field">
            <label htmlFor="ip-allowlist">Endereços ou faixas CIDR, um por linha (vazio: qualquer IP)</label>
            <textarea
              id="ip-allowlist"
              name="ipAllowlist"
              rows={4}
              value={ipText}
              onChange={(event) => setIpText(event.target.value)}
              aria-invalid={ipProblem?.field === 'ipAllowlist' ? true : undefined}
            />
            {ipProblem?.field === 'ipAllowlist' ? (
              <p className="field-error" role="alert">
                {ipProblem.error}
              </p>
            ) : null}
          </div>
        </ActionForm>
      </Section>
    </>
  );
}

interface SectionProps {
  accountId: string;
  session: OperatorSession;
  version: number;
  onChanged: (message: string) => void;
}

const HOLD_REASONS = [
  { value: 'med', label: 'MED (devolução especial)' },
  { value: 'dispute', label: 'Disputa' },
  { value: 'protest', label: 'Contestação' },
  { value: 'administrative', label: 'Administrativo' },
];

function HoldsSection({ accountId, session, version, onChanged }: SectionProps) {
  const [holds, setHolds] = useState<Schemas['Hold'][]>([]);
  const [form, setForm] = useState({ amount: '', reason: 'administrative', transactionId: '', note: '' });
  const [problem, setProblem] = useState<ApiProblem>();
  useEffect(() => {
    void (async () => {
      const { data } = await api.GET('/admin/v1/accounts/{accountId}/holds', { params: { path: { accountId } } });
      if (data) setHolds(data.holds);
    })();
  }, [accountId, version]);
  return (
    <Section title="Bloqueios de saldo">
      {holds.length === 0 ? <p>Nenhum bloqueio.</p> : null}
      {holds.length > 0 ? (
        <table>
          <caption className="sr-only">Bloqueios</caption>
          <thead>
            <tr>
              <th scope="col">Bloqueio</th>
              <th scope="col" className="num">
                Valor
              </th>
              <th scope="col">Motivo</th>
              <th scope="col">Situação</th>
              <th scope="col">Criado em</th>
              <th scope="col">Ações</th>
            </tr>
          </thead>
          <tbody>
            {holds.map((hold) => (
              <tr key={hold.holdId}>
                <td>
                  {hold.holdId}
                  {hold.note ? <div className="muted">{hold.note}</div> : null}
                  {hold.transactionId ? <div className="muted">{hold.transactionId}</div> : null}
                </td>
                <td className="num">{formatBrl(hold.amountCents)}</td>
                <td>{HOLD_REASONS.find((reason) => reason.value === hold.reason)?.label}</td>
                <td>{hold.status === 'active' ? <Status value="pending" label="Ativo" /> : <Status value="approved" label="Liberado" />}</td>
                <td>{formatDateTime(hold.createdAt)}</td>
                <td>
                  {hold.status === 'active' && may(session, 'releaseHold') ? (
                    <ConfirmButton
                      label="Liberar"
                      confirm={`Liberar ${formatBrl(hold.amountCents)}?`}
                      onConfirm={async () => {
                        const { error } = await api.POST('/admin/v1/accounts/{accountId}/holds/{holdId}/release', { params: { path: { accountId, holdId: hold.holdId } } });
                        if (error) setProblem(problemOf(error));
                        else onChanged(`Bloqueio ${hold.holdId} liberado.`);
                      }}
                    />
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
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
              const { data, error } = await api.POST('/admin/v1/accounts/{accountId}/holds', { params: { path: { accountId } }, body });
              if (error) return problemOf(error);
              setForm({ amount: '', reason: 'administrative', transactionId: '', note: '' });
              onChanged(`Bloqueio ${data.holdId} de ${formatBrl(data.amountCents)} criado.`);
              return undefined;
            }}
          >
            <div className="grid-2">
              <Field label="Valor (R$)" name="amountCents" inputMode="decimal" value={form.amount} onChange={(event) => setForm({ ...form, amount: event.target.value })} problem={problem} />
              <SelectField label="Motivo" name="reason" value={form.reason} onChange={(reason) => setForm({ ...form, reason })} options={HOLD_REASONS} problem={problem} />
              <Field label="Cobrança (opcional)" name="transactionId" value={form.transactionId} onChange={(event) => setForm({ ...form, transactionId: event.target.value })} problem={problem} placeholder="tx_…" />
              <Field label="Observação" name="note" value={form.note} onChange={(event) => setForm({ ...form, note: event.target.value })} problem={problem} />
            </div>
          </ActionForm>
        </>
      ) : (
        <FormProblem problem={problem} />
      )}
    </Section>
  );
}

/** Approve or reject a recipient, with the note the merchant sees. */
export function RecipientReview(props: { accountId: string; recipient: Schemas['AdminRecipient']; session: OperatorSession; onChanged: (message: string) => void }) {
  const { accountId, recipient } = props;
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<ApiProblem>();
  const path = { params: { path: { accountId, recipientId: recipient.recipientId } } };
  if (recipient.status !== 'pending_review' || !may(props.session, 'approveRecipient')) return null;
  return (
    <div>
      <Field label={`Observação sobre ${recipient.legalName}`} name="note" value={note} onChange={(event) => setNote(event.target.value)} problem={problem} />
      <FormProblem problem={problem} fields={['note']} />
      <div className="actions">
        <button
          type="button"
          onClick={() =>
            void (async () => {
              const { error } = await api.POST('/admin/v1/accounts/{accountId}/recipients/{recipientId}/approve', path);
              if (error) setProblem(problemOf(error));
              else props.onChanged(`Destinatário ${recipient.legalName} aprovado.`);
            })()
          }
        >
          Aprovar {recipient.legalName}
        </button>
        <button
          type="button"
          className="danger"
          onClick={() =>
            void (async () => {
              const { error } = await api.POST('/admin/v1/accounts/{accountId}/recipients/{recipientId}/reject', { ...path, body: note.trim() ? { note: note.trim() } : {} });
              if (error) setProblem(problemOf(error));
              else props.onChanged(`Destinatário ${recipient.legalName} recusado.`);
            })()
          }
        >
          Recusar {recipient.legalName}
        </button>
      </div>
    </div>
  );
}

function RecipientsSection({ accountId, session, version, onChanged }: SectionProps) {
  const [recipients, setRecipients] = useState<Schemas['AdminRecipient'][]>([]);
  useEffect(() => {
    void (async () => {
      const { data } = await api.GET('/admin/v1/accounts/{accountId}/recipients', { params: { path: { accountId } } });
      if (data) setRecipients(data.recipients);
    })();
  }, [accountId, version]);
  return (
    <Section title="Destinatários">
      {recipients.length === 0 ? <p>Nenhum destinatário.</p> : null}
      {recipients.map((recipient) => (
        <article key={recipient.recipientId} className="card" aria-label={`Destinatário ${recipient.legalName}`}>
          <h3>
            {recipient.legalName} <Status value={recipient.status} label={statusLabel(recipient.status)} />
          </h3>
          <p className="muted">
            {recipient.documentType.toUpperCase()} {recipient.document} · chave {recipient.pixKeyType} {recipient.pixKey} · {formatDateTime(recipient.createdAt)}
            {recipient.reviewNote ? ` · ${recipient.reviewNote}` : ''}
          </p>
          <RecipientReview accountId={accountId} recipient={recipient} session={session} onChanged={onChanged} />
        </article>
      ))}
    </Section>
  );
}

function WebhooksSection({ accountId, session, version, onChanged }: SectionProps) {
  const [webhooks, setWebhooks] = useState<Schemas['WebhookEndpoint'][]>([]);
  const [attempts, setAttempts] = useState<Schemas['WebhookAttempt'][]>([]);
  const [problem, setProblem] = useState<ApiProblem>();
  useEffect(() => {
    void (async () => {
      const [hooks, history] = await Promise.all([
        api.GET('/admin/v1/accounts/{accountId}/webhooks', { params: { path: { accountId } } }),
        api.GET('/admin/v1/accounts/{accountId}/webhook-attempts', { params: { path: { accountId }, query: { limit: 50 } } }),
      ]);
      if (hooks.data) setWebhooks(hooks.data.webhooks);
      if (history.data) setAttempts(history.data.attempts);
    })();
  }, [accountId, version]);
  return (
    <Section title="Webhooks e entregas">
      <FormProblem problem={problem} />
      {webhooks.length === 0 ? <p>Nenhuma URL cadastrada.</p> : null}
      <ul>
        {webhooks.map((webhook) => (
          <li key={webhook.endpointId}>
            {webhook.url} — {webhook.enabled ? 'ativa' : 'pausada'} · eventos: {webhook.events.length ? webhook.events.join(', ') : 'todos'}
          </li>
        ))}
      </ul>
      {attempts.length > 0 ? (
        <table>
          <caption className="sr-only">Últimas tentativas de entrega</caption>
          <thead>
            <tr>
              <th scope="col">Quando</th>
              <th scope="col">Evento</th>
              <th scope="col">URL</th>
              <th scope="col" className="num">
                HTTP
              </th>
              <th scope="col" className="num">
                Duração
              </th>
              <th scope="col">Erro</th>
              <th scope="col">Ações</th>
            </tr>
          </thead>
          <tbody>
            {attempts.map((attempt) => (
              <tr key={attempt.attemptId}>
                <td>{formatDateTime(attempt.createdAt)}</td>
                <td>
                  {attempt.event}
                  <details>
                    <summary>Conteúdo</summary>
                    <pre className="payload">{attempt.requestBody}</pre>
                  </details>
                </td>
                <td className="muted">{attempt.url}</td>
                <td className="num">{attempt.httpStatus ?? '—'}</td>
                <td className="num">{attempt.durationMs} ms</td>
                <td>{attempt.error ?? '—'}</td>
                <td>
                  {may(session, 'resendEvent') ? (
                    <button
                      type="button"
                      className="secondary"
                      onClick={() =>
                        void (async () => {
                          const { error } = await api.POST('/admin/v1/accounts/{accountId}/events/{eventId}/resend', {
                            params: { path: { accountId, eventId: attempt.eventId } },
                            body: {},
                          });
                          if (error) setProblem(problemOf(error));
                          else onChanged(`Evento ${attempt.event} reenviado.`);
                        })()
                      }
                    >
                      Reenviar
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Section>
  );
}

function ApiKeysSection({ accountId, session, version, onChanged }: SectionProps) {
  const [keys, setKeys] = useState<Schemas['ApiKey'][]>([]);
  const [problem, setProblem] = useState<ApiProblem>();
  useEffect(() => {
    void (async () => {
      const { data } = await api.GET('/admin/v1/accounts/{accountId}/api-keys', { params: { path: { accountId } } });
      if (data) setKeys(data.apiKeys);
    })();
  }, [accountId, version]);
  return (
    <Section title="Chaves de API">
      <FormProblem problem={problem} />
      {keys.length === 0 ? <p>Nenhuma chave.</p> : null}
      <ul>
        {keys.map((key) => (
          <li key={key.keyId}>
            <code>{key.publicPrefix}…</code> {key.label ?? ''} · criada em {formatDateTime(key.createdAt)}{' '}
            {key.revokedAt ? (
              `· revogada em ${formatDateTime(key.revokedAt)}`
            ) : may(session, 'revokeApiKey') ? (
              <ConfirmButton
                label="Revogar"
                danger
                confirm={`Revogar ${key.publicPrefix}…?`}
                onConfirm={async () => {
                  const { error } = await api.POST('/admin/v1/accounts/{accountId}/api-keys/{keyId}/revoke', { params: { path: { accountId, keyId: key.keyId } } });
                  if (error) setProblem(problemOf(error));
                  else onChanged(`Chave ${key.publicPrefix}… revogada.`);
                }}
              />
            ) : null}
          </li>
        ))}
      </ul>
    </Section>
  );
}
