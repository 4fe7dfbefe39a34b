/** Command-line mistakes the CLI refuses before sending anything, and the help texts. */
import { describe, expect, it } from 'vitest';
import { COMMANDS, SECTIONS } from '../../src/cli/commands/index.ts';
import * as fx from './cli.fixtures.ts';
import { fakeAdmin } from './cli.harness.ts';
import * as mo from './cli.moneyout.fixtures.ts';
import * as wh from './cli.webhooks.fixtures.ts';

const admin = fakeAdmin();
const A = fx.ACCOUNT_ID;

describe('admin CLI usage errors', () => {
  it.each([
    [['nope'], /Unknown command 'nope'/],
    [['accounts:show'], /missing <accountId>/],
    [['keys:revoke', fx.ACCOUNT_ID], /missing <keyId>/],
    [['accounts:show', fx.ACCOUNT_ID, 'extra'], /unexpected argument 'extra'/],
    [['accounts:list', '--bogus'], /Unknown option '--bogus'/],
    [['accounts:create', '--legal-name', 'Loja', '--cpf', '52998224725', '--cnpj', '11222333000181'], /missing --email/],
    [['accounts:create', '--legal-name', 'L', '--cpf', '1', '--cnpj', '1', '--email', 'e', '--kyc', 'maybe'], /--kyc must be one of pending, approved, rejected/],
    [['accounts:update', fx.ACCOUNT_ID], /Nothing to update/],
    [['accounts:update', fx.ACCOUNT_ID, '--charge-min', 'ten'], /--charge-min must be an integer/],
    [['accounts:update', fx.ACCOUNT_ID, '--blocked', 'yes'], /--blocked must be 'true' or 'false'/],
    [['events', fx.ACCOUNT_ID, '--limit', '1.5'], /--limit must be an integer/],
    [['charges:pay', fx.TRANSACTION_ID, '--payer-name', 'MARIA'], /--payer-name and --payer-document go together/],
    [['charges:pay', fx.TRANSACTION_ID, '--payer-name', 'MARIA', '--payer-document', '123'], /--payer-document must be a CPF/],
    [['provider:queue', '--operation', 'refund', '--outcome', 'fail'], /--operation must be one of registerCharge, sendWithdrawal, queryWithdrawal/],
    [['provider:queue', '--operation', 'sendWithdrawal', '--outcome', 'slow'], /--outcome must be one of succeed, fail, timeout, timeout_unsent, cut/],
    [['accounts:update', A, '--withdrawal-key-types', 'cpf,pix'], /--withdrawal-key-types must be one of cpf, cnpj, email, phone, evp; got 'pix'/],
    [['accounts:update', A, '--approval-mode', 'auto'], /--approval-mode must be one of automatic, manual/],
    [['accounts:update', A, '--approval-threshold', 'default'], /--approval-threshold must be an integer/],
    [['accounts:update', A, '--daily-cap', 'R$100'], /--daily-cap must be an integer/],
    [['recipients:list', A, '--status', 'approved'], /--status must be one of pending_review, active, rejected, deactivated/],
    [['recipients:approve', A], /missing <recipientId>/],
    [['withdrawals:list', '--status', 'done'], /--status must be one of pending, processing, pending_approval/],
    [['withdrawals:list', '--limit', 'all'], /--limit must be an integer/],
    [['withdrawals:approve'], /missing <transactionId>/],
    [['alerts:list', '--status', 'active'], /Unknown option '--status'/],
    [['holds:place', A, '--reason', 'med'], /missing --amount/],
    [['holds:place', A, '--amount', '1000', '--reason', 'fraud'], /--reason must be one of med, dispute, protest, administrative/],
    [['holds:list', A, '--status', 'open'], /--status must be one of active, released/],
    [['holds:chargeback', A, mo.HOLD_ID, '--amount', '6,00'], /--amount must be an integer/],
    [['withdrawals:settle', mo.WITHDRAWAL_ID, '--beneficiary-document', '52998224725'], /--beneficiary-name and --beneficiary-document go together/],
    [['withdrawals:settle', mo.WITHDRAWAL_ID, '--beneficiary-name', 'X', '--beneficiary-document', '1'], /--beneficiary-document must be a CPF/],
    [['withdrawals:reject-psp', mo.WITHDRAWAL_ID, '--code', 'PIX_KEY_NOT_FOUND'], /missing --reason/],
    [['withdrawals:return', mo.WITHDRAWAL_ID], /missing --amount/],
    [['reconcile', 'now'], /unexpected argument 'now'/],
    [['infractions:list', '--status', 'closed'], /--status must be one of open, defending, accepted, rejected, cancelled/],
    [['infractions:defend', '00000042', '--analysis', 'aceito'], /missing --text/],
    [['infractions:defend', '00000042', '--analysis', 'sim', '--text', 'x'], /--analysis must be one of aceito, rejeitado/],
    [['recon:breaks', '--kind', 'lost_money'], /--kind must be one of received_not_credited, credited_not_received/],
    [['recon:runs', '--limit', 'ten'], /--limit must be an integer/],
    [['recon:resolve', 'brk_5b0e6c2a9d1f4e7a8c3b2d1e'], /missing --note/],
    [['recon:resolve', 'brk_5b0e6c2a9d1f4e7a8c3b2d1e', '--note', 'x', '--settlement', 'refund'], /--settlement must be one of write_off, charge_merchant, book_difference/],
    [['webhooks:create', A], /missing --url <url>/],
    [['webhooks:create', A, '--url', 'https://x.example.com', '--events', ''], /--events needs event names or categories/],
    [['webhooks:create', A, '--url', 'https://x.example.com', '--events', ' , '], /--events needs event names or categories/],
    [['webhooks:update', A], /missing <endpointId>/],
    [['webhooks:update', A, wh.ENDPOINT_ID], /Nothing to update/],
    [['webhooks:update', A, wh.ENDPOINT_ID, '--enabled', 'yes'], /--enabled must be 'true' or 'false'/],
    [['webhooks:update', A, wh.ENDPOINT_ID, '--secret', 'x'], /Unknown option '--secret'/],
    [['webhooks:delete', A], /missing <endpointId>/],
    [['webhooks:rotate', A], /missing <endpointId>/],
    [['webhooks:attempts', A, '--limit', 'many'], /--limit must be an integer/],
    [['events:resend', A], /missing <eventId>/],
    [['webhooks:dispatch', 'now'], /unexpected argument 'now'/],
    [['charges:refund', fx.TRANSACTION_ID], /missing --amount/],
    [['charges:refund', fx.TRANSACTION_ID, '--amount', '4,00'], /--amount must be an integer/],
    [['charges:fail', fx.TRANSACTION_ID, '--amount', '1'], /Unknown option '--amount'/],
  ])('%j is refused locally', async (argv, message) => {
    const result = await admin.run(argv);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(admin.recorded()).toHaveLength(0);
  });

  it('prints the general help with every command, by section', async () => {
    const result = await admin.run(['help']);
    expect(result.code).toBe(0);
    for (const command of COMMANDS) expect(result.stdout).toContain(command.name);
    for (const section of SECTIONS) expect(result.stdout).toContain(`\n${section.title}\n`);
    expect(result.stdout).toContain('holds:place <accountId> --amount <N> --reason <med|dispute|protest|administrative>');
    expect(result.stdout).toContain('webhooks:create <accountId> --url <url> [--events <a,b,...|all>] [--description <text>]');
    expect(result.stdout).toContain(
      'webhooks:update <accountId> <endpointId> [--url <url>] [--events <a,b,...|all>] [--description <text>] [--enabled <true|false>]',
    );
    expect(result.stdout).toContain('events:resend <accountId> <eventId> [--endpoint <endpointId>]');
    expect(result.stdout).toContain('charges:refund <transactionId> --amount <N>');
  });

  it("prints one command's help with help <command>", async () => {
    const result = await admin.run(['help', 'withdrawals:reject']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: node src/cli/main.ts withdrawals:reject <transactionId> [--reason <text>] [--json]');
    expect(result.stdout).toContain('refusedReason the MERCHANT sees');
  });

  it('explains the event filter and how to clear a description in help webhooks:update', async () => {
    const result = await admin.run(['help', 'webhooks:update']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('categories (cashin, cashout, refund, dispute, chargeback, recurring)');
    expect(result.stdout).toContain("new description; '' removes it");
  });

  it('prints a command help with --help and sends nothing', async () => {
    const result = await admin.run(['accounts:update', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--charge-min');
    expect(result.stdout).toContain('--approval-threshold');
    expect(result.stdout).toContain('--recipients-per-hour');
    expect(admin.recorded()).toHaveLength(0);
  });

  it('prints the help on stderr and exits 1 without a command', async () => {
    const result = await admin.run([]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Commands:');
  });
});

