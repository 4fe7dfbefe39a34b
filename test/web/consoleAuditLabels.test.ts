import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTION_LABEL, auditActionLabel } from '../../web/console/src/auditLabels.ts';
import { formatCnpj } from '../../web/shared/format.ts';

/**
 * The console shows audit actions in Portuguese (issue 22): every action name the server can record has a
 * label, found by reading src/ as a person would grep it (`action: '…'`, the audited helpers' names, and the
 * sign-in names built from `${who}.signed_in`), and an unknown name is readable, never raw with dots.
 */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? sources(file) : file.endsWith('.ts') ? [file] : [];
  });
}

function recordedActions(): Set<string> {
  const found = new Set<string>();
  for (const file of sources(path.resolve('src'))) {
    const text = readFileSync(file, 'utf8');
    // `action: 'x.y'` and the names passed to the audited helpers (`'withdrawal.approve'`, `'sandbox.charge.pay'`).
    for (const match of text.matchAll(/action:\s*'([a-zA-Z_]+\.[a-zA-Z_.]+)'/g)) found.add(match[1] ?? '');
    if (/src[\\/]backoffice[\\/]/.test(file)) for (const match of text.matchAll(/'([a-z][a-zA-Z_]*\.[a-zA-Z_.]+)'/g)) found.add(match[1] ?? '');
  }
  for (const who of ['operator', 'user']) for (const outcome of ['signed_in', 'sign_in_failed']) found.add(`${who}.${outcome}`);
  return found;
}

describe('the console audit labels', () => {
  it('has a Portuguese label for every action name recorded in src/', () => {
    const missing = [...recordedActions()].filter((action) => !(action in AUDIT_ACTION_LABEL) && !/\.(ts|tsx|json|yaml)$/.test(action));
    expect(missing).toEqual([]);
  });

  it('shows an unknown action readably, without dots or underscores', () => {
    expect(auditActionLabel('user.totp_enabled')).toBe('Usuário: totp enabled');
    expect(auditActionLabel('webhook.rotateSecret')).toBe('Segredo de webhook trocado');
    expect(auditActionLabel('api_key.something_new')).toBe('Chave de API: something new');
    for (const action of ['x.y.z', 'nova_coisa.feita', 'solo']) expect(auditActionLabel(action)).not.toMatch(/[._]/);
  });

  it('formats a CNPJ, numeric or alphanumeric', () => {
    expect(formatCnpj('12345678000190')).toBe('12.345.678/0001-90');
    expect(formatCnpj('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
    expect(formatCnpj('123')).toBe('123');
  });
});
