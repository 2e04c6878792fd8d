/**
 * Migration 2 of appeal: the channel an appeal stored before channels existed came through.
 * Only the portal took appeals then — signed-in applicants (the row has an owner) through the
 * personal cabinet, visitors without an account through the public e-form. A script, because
 * the owner is a column of the row, not a field of the record.
 */

/** appeal-channel ids (schemas/_reference/appeal-channel.json). */
const E_FORM = 1;
const CABINET = 2;

export default (data: Record<string, unknown>, row: { owner: string | null }): Record<string, unknown> =>
  data.channelId === undefined || data.channelId === null
    ? { ...data, channelId: row.owner ? CABINET : E_FORM }
    : data;
