import { Money, QueryState } from '../../../../shared/ui.tsx';
import { $api } from '../../api.ts';
import { Section } from './Section.tsx';

/** The account's balance, every part of it, and whether the ledger agrees. */
export function BalanceSection({ accountId }: { accountId: string }) {
  const { data: balance, isPending, error } = $api.useQuery('get', '/admin/v1/accounts/{accountId}/balance', { params: { path: { accountId } } });
  return (
    <Section title="Saldo">
      <QueryState isPending={isPending} error={error}>
        {balance ? (
          <>
            <div className="metrics">
              <div className="metric">
                <div className="label">Disponível</div>
                <div className="value"><Money cents={balance.availableCents} /></div>
              </div>
              <div className="metric">
                <div className="label">Bloqueios ativos</div>
                <div className="value"><Money cents={balance.heldCents} /></div>
              </div>
              <div className="metric">
                <div className="label">Reservado (saques em andamento)</div>
                <div className="value"><Money cents={balance.reservedCents} /></div>
              </div>
              <div className="metric">
                <div className="label">Disponível para saque</div>
                <div className="value"><Money cents={balance.withdrawableCents} /></div>
              </div>
            </div>
            <p>{balance.ledgerConsistent ? 'Razão consistente.' : `Razão inconsistente: ${balance.violations.join('; ')}`}</p>
          </>
        ) : null}
      </QueryState>
    </Section>
  );
}
