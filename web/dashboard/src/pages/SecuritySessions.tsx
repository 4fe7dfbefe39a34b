import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { problemOf } from '../../../shared/api.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { DataTable } from '../../../shared/table.tsx';
import { ConfirmButton, Notice, QueryState } from '../../../shared/ui.tsx';
import { $api, api } from '../api.ts';

/** Sessions and devices: where the user is signed in, ending one, or every other (issue 22). */
export function SessionsSection({ onEndedCurrent }: { onEndedCurrent: () => void }) {
  const sessions = $api.useQuery('get', '/dashboard/api/v1/sessions');
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const reload = () => queryClient.invalidateQueries({ queryKey: ['get', '/dashboard/api/v1/sessions'] });
  const others = (sessions.data?.sessions ?? []).filter((session) => !session.current).length;

  return (
    <section className="card" aria-labelledby="sessoes-titulo">
      <h2 id="sessoes-titulo">Sessões e dispositivos</h2>
      <p>Onde você está conectado agora. Se não reconhece um dispositivo, encerre a sessão dele e troque a senha.</p>
      {notice ? <Notice>{notice}</Notice> : null}
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      <QueryState isPending={sessions.isPending} error={sessions.error}>
        <DataTable
          caption="Sessões ativas"
          rowTestId="session-row"
          rows={sessions.data?.sessions ?? []}
          rowKey={(session) => session.sessionId}
          columns={[
            {
              header: 'Dispositivo',
              kind: 'title',
              cell: (session) => (
                <>
                  <span title={session.userAgent ?? undefined}>
                    {session.browser} · {session.os}
                  </span>
                  {session.current ? (
                    <>
                      {' '}
                      <strong className="status status-paid">esta sessão</strong>
                    </>
                  ) : null}
                  {session.secondFactorDone ? null : ' (aguardando o código)'}
                </>
              ),
            },
            { header: 'Endereço IP', cell: (session) => session.ip ?? '—' },
            { header: 'Entrou em', cell: (session) => formatDateTime(session.createdAt) },
            { header: 'Último uso', cell: (session) => formatDateTime(session.lastSeenAt) },
            {
              header: 'Ação',
              kind: 'actions',
              cell: (session) => (
                <ConfirmButton
                  label={session.current ? 'Sair desta sessão' : 'Encerrar'}
                  danger
                  confirm={session.current ? 'Sair deste navegador?' : `Encerrar a sessão de ${session.browser} · ${session.os}?`}
                  onConfirm={async () => {
                    const { error } = await api.DELETE('/dashboard/api/v1/sessions/{sessionId}', { params: { path: { sessionId: session.sessionId } } });
                    if (error) return setProblem(problemOf(error).error);
                    setProblem(undefined);
                    if (session.current) return onEndedCurrent();
                    setNotice('Sessão encerrada.');
                    await reload();
                  }}
                />
              ),
            },
          ]}
        />
        <ConfirmButton
          label="Sair de todos os outros dispositivos"
          danger
          disabled={others === 0}
          confirm={`Encerrar ${others === 1 ? 'a outra sessão' : `as outras ${others} sessões`}? Este navegador continua conectado.`}
          onConfirm={async () => {
            const { data, error } = await api.POST('/dashboard/api/v1/sessions/end-others');
            if (error) return setProblem(problemOf(error).error);
            setProblem(undefined);
            setNotice(data.ended === 1 ? '1 sessão encerrada.' : `${data.ended} sessões encerradas.`);
            await reload();
          }}
        />
      </QueryState>
    </section>
  );
}
