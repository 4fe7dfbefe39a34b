import type { Schemas } from '../../api.ts';
import { SettingsForm, type Setting } from './SettingsForm.tsx';

const FEES: Setting[] = [
  { kind: 'money', key: 'chargeFeeFixedCents', label: 'Tarifa fixa por cobrança (R$)' },
  { kind: 'count', key: 'chargeFeeBps', label: 'Tarifa proporcional por cobrança (pontos-base, 100 = 1%)' },
  { kind: 'money', key: 'withdrawalFeeFixedCents', label: 'Tarifa fixa por saque (R$)' },
  { kind: 'count', key: 'withdrawalFeeBps', label: 'Tarifa proporcional por saque (pontos-base)' },
];

/** The account's fees (finance). */
export function FeesSection(props: { account: Schemas['Account']; canUpdate: boolean; onChanged: (message: string) => void }) {
  return <SettingsForm title="Tarifas" settings={FEES} saveLabel="Salvar tarifas" savedMessage="Tarifas salvas." {...props} />;
}
