import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { formatDateTime } from '../../../shared/format.ts';
import { useRoute } from '../../../shared/router.ts';
import { Notice, QueryState } from '../../../shared/ui.tsx';
import { $api } from '../api.ts';

/** Links in a mail's text become links of the page (the outbox stands in for a mailbox outside production). */
function withLinks(text: string): ReactNode[] {
  return text.split(/(https?:\/\/\S+)/g).map((part, index) =>
    /^https?:\/\//.test(part) ? (
      <a key={index} href={part}>
        {part}
      </a>
    ) : (
      part
    ),
  );
}

/**
 * The outbox key `npm start` prints (in the link `#/caixa-de-saida?chave=…`) is kept in a cookie sent only
 * to the outbox's path, for 30 days: the server reads it there (never in a URL or a logged header), and the
 * dashboard's pages cannot read it back. A key the server does not take is forgotten.
 */
const KEY_COOKIE = 'pixgate_outbox';
const KEY_COOKIE_PATH = '/dashboard/api/v1/dev/outbox';

function keepKey(key: string): void {
  document.cookie = `${KEY_COOKIE}=${encodeURIComponent(key)}; Path=${KEY_COOKIE_PATH}; Max-Age=${30 * 86_400}; SameSite=Strict`;
}

function forgetKey(): void {
  document.cookie = `${KEY_COOKIE}=; Path=${KEY_COOKIE_PATH}; Max-Age=0; SameSite=Strict`;
}

/**
 * The development mail outbox (outside production, no SMTP configured): every e-mail with the key of
 * `npm start`, a signed-in user's own e-mails, nothing for anyone else.
 */
export function OutboxPage() {
  const route = useRoute();
  const givenKey = route.query.get('chave');
  const client = useQueryClient();
  // When the key of the address was kept (in the cookie): the outbox is read with it from then on.
  const [keptAt, setKeptAt] = useState<number>();
  useEffect(() => {
    if (!givenKey) return;
    keepKey(givenKey);
    // The key leaves the address bar and the history entry.
    window.history.replaceState(null, '', '#/caixa-de-saida');
    setKeptAt(Date.now());
    void client.resetQueries({ queryKey: ['get', '/dashboard/api/v1/dev/outbox'] });
  }, [givenKey, client]);
  const outboxQuery = $api.useQuery('get', '/dashboard/api/v1/dev/outbox', { params: { query: { limit: 50 } } }, { staleTime: 0, enabled: !givenKey || keptAt !== undefined });
  const outbox = outboxQuery.data;
  // A key the server did not take (read after it was kept) is forgotten.
  const keyRefused = keptAt !== undefined && outbox !== undefined && !outboxQuery.isFetching && outboxQuery.dataUpdatedAt >= keptAt && outbox.access !== 'all';
  useEffect(() => {
    if (keyRefused) forgetKey();
  }, [keyRefused]);

  return (
    <>
      <h1>Caixa de saída (desenvolvimento)</h1>
      <p className="muted">Sem servidor SMTP configurado, fora de produção, os e-mails do PixGate ficam aqui em vez de serem enviados.</p>
      <p>
        <a href="#/entrar">Entrar no painel</a>
      </p>
      {keyRefused ? <Notice>A chave deste endereço não vale para este servidor. Use o endereço da caixa de saída mostrado pelo npm start ao iniciar.</Notice> : null}
      {!outbox || (givenKey && keptAt === undefined) ? (
        <QueryState isPending={outboxQuery.isPending} error={outboxQuery.error} />
      ) : outbox.access === 'none' ? (
        <Notice>
          Os e-mails trazem links de acesso, por isso não ficam abertos a todos. Entre no painel para ver os enviados ao seu e-mail, ou abra o
          endereço da caixa de saída que o npm start mostra ao iniciar (linha “Mail outbox”): ele mostra todos.
        </Notice>
      ) : (
        <>
          <p className="muted">
            {outbox.access === 'all'
              ? 'Todos os e-mails do servidor (chave da caixa de saída).'
              : 'Os e-mails enviados ao seu endereço. Para ver todos, abra o endereço da caixa de saída que o npm start mostra ao iniciar.'}
          </p>
          {outbox.mails.length === 0 ? (
            <Notice>Nenhum e-mail enviado ainda.</Notice>
          ) : (
            outbox.mails.map((mail) => (
              <article key={mail.mailId} className="card" aria-label={`E-mail para ${mail.to}: ${mail.subject}`}>
                <h2>{mail.subject}</h2>
                <p className="muted">
                  Para {mail.to} · {formatDateTime(mail.createdAt)}
                </p>
                <pre className="payload">{withLinks(mail.text)}</pre>
              </article>
            ))
          )}
        </>
      )}
    </>
  );
}
