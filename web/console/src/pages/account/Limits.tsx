import type { Schemas } from '../../api.ts';
import { SettingsForm, type Setting } from './SettingsForm.tsx';

const LIMITS: Setting[] = [
  { kind: 'money', key: 'withdrawalMaxCents', label: 'Saque máximo (R$)' },
  { kind: 'money', key: 'withdrawalDailyCapCents', label: 'Limite diário de saques (R$)' },
  { kind: 'money', key: 'withdrawalMonthlyCapCents', label: 'Limite mensal de saques (R$)' },
  { kind: 'count', key: 'chargeRatePerHour', label: 'Cobranças por hora' },
  { kind: 'count', key: 'withdrawalsPerHour', label: 'Saques por hora' },
  { kind: 'count', key: 'recipientLimit', label: 'Teto de destinatários ativos' },
  { kind: 'count', key: 'recipientsPerHour', label: 'Cadastros de destinatário por hora' },
];

/** The account's limits and how its withdrawals are approved (finance). */
export function LimitsSection(props: { account: Schemas['Account']; canUpdate: boolean; onChanged: (message: string) => void }) {
  return <SettingsForm title="Limites e aprovação de saques" settings={LIMITS} saveLabel="Salvar limites" savedMessage="Limites salvos." withApprovalMode {...props} />;
}
