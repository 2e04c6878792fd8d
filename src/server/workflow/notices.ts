/**
 * A transition's notices (`notify` of workflows/*.machine.json) as outbox rows, written in the
 * transition's transaction. A person gets a text in their language (the record's locale field,
 * else the default): the stored message template the notice names (`smsTemplate`: a record of
 * the entity whose manifest declares `messageTemplates` for the channel — active, for this
 * entity, with a text in that language or the default one), else the i18n `template`, else the
 * engine's plain fallback (`workflow.notice.fallback`: label and status). A system gets the message
 * type and a JSON body. No contact → no notice. Every row names the record it is about.
 */
import type { DefinitionRegistry, EntityDefinition } from '../../definitions/registry.ts';
import type { Notice } from '../../generated/meta.ts';
import type { Queryable } from '../db/database.ts';
import type { Actor } from '../store/entity-store.ts';
import type { WorkflowEngineOptions } from './workflow-engine.ts';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../shared/locales.ts';
import { sqlText, valueAt } from '../../shared/pointer.ts';
import { renderTemplate } from '../../shared/message-template.ts';
import { tableName } from '../db/entity-table.ts';

/** The i18n key of the text used when a notice names neither a usable stored template nor an i18n one. */
export const FALLBACK_TEMPLATE = 'workflow.notice.fallback';

/** One transition as its notices see it. */
export interface NoticeStep {
  def: EntityDefinition;
  machine: string;
  id: number;
  event: string;
  from: string;
  to: string;
  data: Record<string, unknown>;
  payload: Record<string, unknown>;
  actor: Actor;
}

/** A locale value as stored in a record, if it is one of ours. */
const asLocale = (value: unknown): Locale | undefined =>
  (LOCALES as readonly unknown[]).includes(value) ? (value as Locale) : undefined;

/**
 * The notice writer of a workflow engine: `queue(notice, step, tx)` writes the notice's outbox
 * row and answers whether it queued one.
 */
export function createNoticeQueue(
  registry: DefinitionRegistry,
  notify: NonNullable<WorkflowEngineOptions['notify']>,
  now: () => Date,
) {
  const stores = [...registry.entities.values()].filter((d) => d.manifest.messageTemplates);

  /** The stored template's text for this entity and language, when one is usable. */
  async function storedText(
    code: string,
    channel: string,
    entity: string,
    locale: Locale,
    tx: Queryable,
  ): Promise<string | undefined> {
    for (const holder of stores) {
      const spec = holder.manifest.messageTemplates!;
      if (spec.channel !== channel) continue;
      const { rows } = await tx.query<{ data: Record<string, unknown> }>(
        `SELECT data FROM ${tableName(holder.id)} WHERE ${sqlText(spec.codeField)} = $1 ORDER BY id LIMIT 1`,
        [code],
      );
      const data = rows[0]?.data;
      if (!data || valueAt(data, spec.activeField) !== true || valueAt(data, spec.entityField) !== entity) continue;
      const text = [locale, DEFAULT_LOCALE]
        .map((l) => valueAt(data, `${spec.textField}/${l}`))
        .find((t): t is string => typeof t === 'string' && t.trim() !== '');
      if (text) return text;
    }
    return undefined;
  }

  return async function queue(
    notice: Exclude<Notice, { channel: 'inApp' }>,
    step: NoticeStep,
    tx: Queryable,
  ): Promise<boolean> {
    const { def, data } = step;
    const about = { entity: def.id, recordId: step.id };
    if (notice.channel === 'system') {
      const body = {
        type: notice.message,
        entity: def.id,
        subject: def.manifest.subject,
        recordId: step.id,
        event: step.event,
        from: step.from,
        status: step.to,
        at: now().toISOString(),
        actor: step.actor.id,
        payload: step.payload,
        record: data,
      };
      await notify.sender.send(
        {
          channel: 'system',
          to: notice.to,
          templateKey: notice.message,
          params: {},
          locale: DEFAULT_LOCALE,
          content: { subject: notice.message, body: JSON.stringify(body) },
          about,
        },
        tx,
      );
      return true;
    }
    const contact = valueAt(data, notice.to);
    if (typeof contact !== 'string' || !contact.trim()) return false;
    // SMS gateways take digits only (998901234567), as registration sends them.
    const to = notice.channel === 'sms' ? contact.replace(/\D/g, '') : contact.trim();
    if (!to) return false;
    const locale = asLocale(valueAt(data, notice.locale ?? def.manifest.localeField ?? '/locale')) ?? DEFAULT_LOCALE;
    const label = def.manifest.labelField ? valueAt(data, def.manifest.labelField) : undefined;
    const params: Record<string, unknown> = {
      ...Object.fromEntries(
        Object.entries(step.payload).filter(([, v]) => typeof v === 'string' || typeof v === 'number'),
      ),
      id: step.id,
      label: label === undefined || label === null || label === '' ? String(step.id) : String(label),
      status: notify.translator.t(locale, `workflow.${step.machine}.states.${step.to}`),
      event: notify.translator.t(locale, `workflow.${step.machine}.events.${step.event}`),
    };
    // The due date of the state just entered, when it keeps one ("the answer is due by …").
    const deadline = registry.machines.get(step.machine)?.states[step.to]?.deadline;
    if (deadline) params.deadline = valueAt(data, deadline.field) ?? '';
    const code = notice.channel === 'sms' ? notice.smsTemplate : undefined;
    const stored = code ? await storedText(code, notice.channel, def.id, locale, tx) : undefined;
    if (code && stored !== undefined) {
      const body = renderTemplate(stored, data, params);
      await notify.sender.send(
        { channel: notice.channel, to, templateKey: code, params, locale, content: { subject: '', body }, about },
        tx,
      );
      return true;
    }
    const templateKey = notice.template ?? FALLBACK_TEMPLATE;
    await notify.sender.send({ channel: notice.channel, to, templateKey, params, locale, about }, tx);
    return true;
  };
}
