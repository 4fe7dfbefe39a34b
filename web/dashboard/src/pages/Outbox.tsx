import { useEffect, useState, type ReactNode } from 'react';
import { problemOf } from '../../../shared/api.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { Loading, Notice } from '../../../shared/ui.tsx';
import { api, type Schemas } from '../api.ts';

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

/** The development mail outbox: outside production and with no SMTP configured, every e-mail the gateway sent. */
export function OutboxPage() {
  const [mails, setMails] = useState<Schemas['OutboxMail'][]>();
  const [problem, setProblem] = useState<string>();

  useEffect(() => {
    void (async () => {
      const { data, error } = await api.GET('/dashboard/api/v1/dev/outbox', { params: { query: { limit: 50 } } });
      if (error) setProblem(problemOf(error).error);
      else setMails(data.mails);
    })();
  }, []);

  return (
    <>
      <h1>Caixa de saída (desenvolvimento)</h1>
      <p className="muted">Sem servidor SMTP configurado, fora de produção, os e-mails do PixGate ficam aqui e no log do servidor.</p>
      <p>
        <a href="#/entrar">Entrar no painel</a>
      </p>
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : !mails ? (
        <Loading />
      ) : mails.length === 0 ? (
        <Notice>Nenhum e-mail enviado ainda.</Notice>
      ) : (
        mails.map((mail) => (
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
  );
}
