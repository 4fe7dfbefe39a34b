/** recipients:list, recipients:approve, recipients:reject, recipients:deactivate (compliance review). */
import { oneOf } from '../args.ts';
import { arg, defineCommand, optionalBody, queryOf, type CommandInput } from '../command.ts';
import { segment } from '../http.ts';
import { renderDeactivated, renderRecipient, renderRecipientList } from '../renderCompliance.ts';
import type { AdminRecipient, AdminRecipientList, DeactivatedRecipient, RecipientNoteRequest, RecipientStatus } from '../types.ts';

const RECIPIENT_STATUSES: Readonly<Record<RecipientStatus, true>> = {
  pending_review: true,
  active: true,
  rejected: true,
  deactivated: true,
};

const recipientsPath = (input: CommandInput) => `/admin/v1/accounts/${segment(arg(input, 0))}/recipients`;
const actionPath = (input: CommandInput, action: string) => `${recipientsPath(input)}/${segment(arg(input, 1))}/${action}`;
const NOTE_OPTION = { name: 'note', value: '<text>', help: 'internal note for the review trail, up to 200 characters' };

function noteBody(input: CommandInput): RecipientNoteRequest {
  const note = input.options['note'];
  return note === undefined ? {} : { note };
}

export const listRecipients = defineCommand<AdminRecipientList>({
  name: 'recipients:list',
  summary: "List an account's recipients with full documents, oldest first (the review queue with --status pending_review).",
  args: ['accountId'],
  options: [{ name: 'status', value: '<pending_review|active|rejected|deactivated>', help: 'only this status (default: all)' }],
  request(input) {
    const status = input.options['status'];
    return {
      method: 'GET',
      path: recipientsPath(input),
      ...queryOf({ status: status === undefined ? undefined : oneOf('status', status, RECIPIENT_STATUSES) }),
    };
  },
  render: renderRecipientList,
});

export const approveRecipient = defineCommand<AdminRecipient>({
  name: 'recipients:approve',
  summary: 'Approve a recipient pending review: it becomes active and can receive withdrawals.',
  args: ['accountId', 'recipientId'],
  options: [],
  request: (input) => ({ method: 'POST', path: actionPath(input, 'approve') }),
  render: renderRecipient,
});

export const rejectRecipient = defineCommand<AdminRecipient>({
  name: 'recipients:reject',
  summary: 'Reject a recipient pending review.',
  args: ['accountId', 'recipientId'],
  options: [NOTE_OPTION],
  request: (input) => ({ method: 'POST', path: actionPath(input, 'reject'), ...optionalBody(noteBody(input)) }),
  render: renderRecipient,
});

export const deactivateRecipient = defineCommand<DeactivatedRecipient>({
  name: 'recipients:deactivate',
  summary: 'Deactivate an active recipient; its withdrawals pending approval are cancelled.',
  args: ['accountId', 'recipientId'],
  options: [NOTE_OPTION],
  request: (input) => ({ method: 'POST', path: actionPath(input, 'deactivate'), ...optionalBody(noteBody(input)) }),
  render: renderDeactivated,
});
